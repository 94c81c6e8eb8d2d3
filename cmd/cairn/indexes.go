package main

import (
	"os"
	"sync"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Indexes opens the search cache of every vault a scope selects, with
// warnings on stderr and a progress bar when a rebuild runs on a terminal.
func (e *Env) Indexes(scope schema.Scope) ([]*index.Index, error) {
	return e.App().Indexes(scope)
}

func (e *Env) indexOptions(v *vault.Vault) index.Options {
	return index.Options{LockTimeout: e.g.LockTimeout, Warn: func(msg string) { e.Warnf("%s", msg) }, Progress: e.progress(v)}
}

// progress draws a bar while a large vault's cache is rebuilt on a
// terminal; nil elsewhere.
func (e *Env) progress(v *vault.Vault) func(done, total int) {
	f, ok := e.Stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	var bar *progressbar.ProgressBar
	var mu sync.Mutex
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if bar == nil {
			if total < 200 {
				return // small vaults index faster than a bar can draw
			}
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription("indexing "+string(v.Scope)+" vault"),
				progressbar.OptionShowCount(), progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100_000_000))
		}
		_ = bar.Set(done)
		if done >= total {
			_ = bar.Finish()
		}
	}
}
