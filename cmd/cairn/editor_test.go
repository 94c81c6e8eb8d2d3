package main

import (
	"slices"
	"testing"
)

// The Windows editor setting is split without a shell; the rule is tested
// here on any OS.
func TestSplitCommandLine(t *testing.T) {
	files := map[string]bool{`C:\Program Files\Notepad++\notepad++.exe`: true}
	exists := func(p string) bool { return files[p] }
	tests := []struct {
		in   string
		prog string
		args []string
	}{
		{"notepad", "notepad", nil},
		{"code --wait", "code", []string{"--wait"}},
		{`C:\Program Files\Notepad++\notepad++.exe`, `C:\Program Files\Notepad++\notepad++.exe`, nil},
		{`"C:\Program Files\Sublime Text\subl.exe" -w`, `C:\Program Files\Sublime Text\subl.exe`, []string{"-w"}},
		{`"C:\Program Files\Vim\gvim.exe"`, `C:\Program Files\Vim\gvim.exe`, []string{}},
		{`  C:\tools\hx.exe  `, `C:\tools\hx.exe`, []string{}},
	}
	for _, tt := range tests {
		prog, args := splitCommandLine(tt.in, exists)
		if prog != tt.prog || !slices.Equal(args, tt.args) {
			t.Errorf("splitCommandLine(%q) = %q %q, want %q %q", tt.in, prog, args, tt.prog, tt.args)
		}
	}
}
