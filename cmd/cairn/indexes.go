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
	vs, err := e.Vaults(scope)
	if err != nil {
		return nil, err
	}
	var out []*index.Index
	for _, v := range vs {
		ix, err := index.Open(v, e.indexOptions(v))
		if err != nil {
			return nil, err
		}
		out = append(out, ix)
	}
	return out, nil
}

func (e *Env) indexOptions(v *vault.Vault) index.Options {
	opts := index.Options{LockTimeout: e.g.LockTimeout, Warn: func(msg string) { e.Warnf("%s", msg) }}
	if f, ok := e.Stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		var bar *progressbar.ProgressBar
		var mu sync.Mutex
		opts.Progress = func(done, total int) {
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
	return opts
}
