package main

import (
	"io"
	"reflect"
	"testing"
)

// TestFastTreesMatchCLI: each one-command tree declares its command and
// the global flags exactly as CLI does, so it cannot drift.
func TestFastTreesMatchCLI(t *testing.T) {
	cli := reflect.TypeFor[CLI]()
	for _, tree := range []reflect.Type{reflect.TypeFor[hookTree](), reflect.TypeFor[searchTree]()} {
		if tree.NumField() != 2 {
			t.Fatalf("%s has %d fields, want Globals and one command", tree, tree.NumField())
		}
		for i := range tree.NumField() {
			f := tree.Field(i)
			want, ok := cli.FieldByName(f.Name)
			if !ok || want.Type != f.Type || want.Tag != f.Tag || want.Anonymous != f.Anonymous {
				t.Errorf("%s.%s %s `%s` differs from CLI's", tree, f.Name, f.Type, f.Tag)
			}
		}
	}
}

// TestFastParseAgrees: the small trees fill the command and the globals as
// the whole tree does, and leave help and bad arguments to it.
func TestFastParseAgrees(t *testing.T) {
	t.Setenv("CAIRN_VAULT", "")
	t.Setenv("CAIRN_SESSION", "from-env")
	dir := t.TempDir()
	cases := [][]string{
		{"hook", "session-start"},
		{"hook", "user-prompt", "--agent", "codex"},
		{"hook", "finalize", "--payload", "p.json", "--vault", dir, "--lock-timeout", "3s"},
		{"search", "--scope", "project", "--json", "--", "-h", "thumbnails"},
		{"search", "-k", "decision,case", "-C", dir, "a", "b"},
		{"search"},
	}
	for _, args := range cases {
		kctx, g := parseFast(args, io.Discard, io.Discard)
		if kctx == nil {
			t.Errorf("%q: not parsed by its small tree", args)
			continue
		}
		var cli CLI
		p, err := newParser(&cli, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		full, err := p.Parse(args)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if kctx.Command() != full.Command() || !reflect.DeepEqual(*g, cli.Globals) {
			t.Errorf("%q: command %q globals %+v, whole tree %q %+v", args, kctx.Command(), *g, full.Command(), cli.Globals)
		}
		var got, want any
		switch args[0] {
		case "hook":
			got, want = kctx.Model.Target.Addr().Interface().(*hookTree).Hook, cli.Hook
		case "search":
			got, want = kctx.Model.Target.Addr().Interface().(*searchTree).Search, cli.Search
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %+v, whole tree %+v", args, got, want)
		}
	}
	for _, args := range [][]string{{"hook", "--help"}, {"search", "-h"}, {"hook"}, {"search", "--nope"}, {"ls"}, {"--vault", dir, "hook", "stop"}, {}} {
		if kctx, _ := parseFast(args, io.Discard, io.Discard); kctx != nil {
			t.Errorf("%q: parsed by a small tree, want the whole CLI", args)
		}
	}
}

// BenchmarkParseHook is what a hook process spends parsing its arguments:
// with the hook's own tree, and with the whole CLI.
func BenchmarkParseHook(b *testing.B) {
	args := []string{"hook", "user-prompt", "--agent", "codex"}
	b.Run("tree=hook", func(b *testing.B) {
		for b.Loop() {
			if kctx, _ := parseFast(args, io.Discard, io.Discard); kctx == nil {
				b.Fatal("not parsed")
			}
		}
	})
	b.Run("tree=cli", func(b *testing.B) {
		for b.Loop() {
			var cli CLI
			p, err := newParser(&cli, io.Discard, io.Discard)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := p.Parse(args); err != nil {
				b.Fatal(err)
			}
		}
	})
}
