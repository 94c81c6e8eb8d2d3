package main

import "testing"

func TestHookCommandPerOS(t *testing.T) {
	tests := []struct {
		name  string
		s     self
		hook  string
		shell string
	}{
		{"linux, on PATH", self{goos: "linux", exe: "/usr/local/bin/cairn", real: "/usr/local/bin/cairn", onPath: "/usr/local/bin/cairn", pathTo: "/usr/local/bin/cairn"},
			"cairn", "cairn"},
		{"linux, not on PATH", self{goos: "linux", exe: "/home/ann/bin/cairn", real: "/home/ann/bin/cairn"},
			"/home/ann/bin/cairn", "/home/ann/bin/cairn"},
		{"linux, another cairn on PATH", self{goos: "linux", exe: "/tmp/x/cairn", real: "/tmp/x/cairn", onPath: "/usr/bin/cairn", pathTo: "/usr/bin/cairn"},
			"/tmp/x/cairn", "/tmp/x/cairn"},
		{"linux, go test binary", self{goos: "linux", exe: "/tmp/go-build/cairn.test", real: "/tmp/go-build/cairn.test"},
			"cairn", "cairn"},
		{"macOS, Homebrew symlink on PATH", self{goos: "darwin", exe: "/opt/homebrew/Cellar/cairn/1.2.0/bin/cairn", real: "/opt/homebrew/Cellar/cairn/1.2.0/bin/cairn",
			onPath: "/opt/homebrew/bin/cairn", pathTo: "/opt/homebrew/Cellar/cairn/1.2.0/bin/cairn"},
			"/opt/homebrew/bin/cairn", "/opt/homebrew/bin/cairn"},
		{"macOS, not on PATH, space in home", self{goos: "darwin", exe: "/Users/John Doe/go/bin/cairn", real: "/Users/John Doe/go/bin/cairn"},
			"/Users/John Doe/go/bin/cairn", "'/Users/John Doe/go/bin/cairn'"},
		{"Windows, on PATH", self{goos: "windows", exe: `C:\Users\ann\go\bin\cairn.exe`, real: `C:\Users\ann\go\bin\cairn.exe`,
			onPath: `C:\Users\ann\go\bin\cairn.exe`, pathTo: `C:\Users\ann\go\bin\cairn.exe`},
			`C:\Users\ann\go\bin\cairn.exe`, "C:/Users/ann/go/bin/cairn.exe"},
		{"Windows, Program Files", self{goos: "windows", exe: `C:\Program Files\cairn\cairn.exe`, real: `C:\Program Files\cairn\cairn.exe`},
			`C:\Program Files\cairn\cairn.exe`, "'C:/Program Files/cairn/cairn.exe'"},
		{"quote in path", self{goos: "linux", exe: "/home/o'neil/cairn", real: "/home/o'neil/cairn"},
			"/home/o'neil/cairn", `'/home/o'\''neil/cairn'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.hookCommand(); got != tt.hook {
				t.Errorf("hookCommand = %q, want %q", got, tt.hook)
			}
			if got := tt.s.shellCommand(); got != tt.shell {
				t.Errorf("shellCommand = %q, want %q", got, tt.shell)
			}
		})
	}
}

func TestExecutable(t *testing.T) {
	if got := (self{exe: `C:\x\cairn.exe`}).executable(); got != `C:\x\cairn.exe` {
		t.Errorf("windows binary: %q", got)
	}
	if got := (self{exe: "/tmp/cairn.test", onPath: "/usr/bin/cairn"}).executable(); got != "/usr/bin/cairn" {
		t.Errorf("test binary: %q", got)
	}
}
