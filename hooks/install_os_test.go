package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestIsCairnCommand(t *testing.T) {
	tests := map[string]bool{
		"cairn":                                  true,
		"/usr/local/bin/cairn":                   true,
		"/Users/John Doe/go/bin/cairn":           true,
		`C:\Users\ann\go\bin\cairn.exe`:          true,
		`C:\Program Files\cairn\CAIRN.EXE`:       false, // the name itself is case-sensitive, as on Linux
		`C:\Program Files\cairn\cairn.EXE`:       true,
		"cairn hook session-start":               true,
		"/opt/homebrew/bin/cairn hook stop":      true,
		"cairnish":                               false,
		"/usr/bin/not-cairn":                     false,
		"prettier --write cairn":                 false,
		`C:\tools\cairn\prettier.exe`:            false,
		"node /home/ann/cairn/server.js --cairn": false,
	}
	for cmd, want := range tests {
		if got := isCairnCommand(cmd); got != want {
			t.Errorf("isCairnCommand(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// A settings file written on Windows names cairn.exe by its absolute path;
// installing again must see it as installed and uninstall must remove it,
// whatever OS runs the command.
func TestInstallWindowsCommand(t *testing.T) {
	dir := t.TempDir()
	exe := `C:\Users\ann\go\bin\cairn.exe`
	for _, agent := range []string{"claude", "codex"} {
		tg := Target{Agent: agent, Scope: "project", Project: dir, Command: exe}
		if _, err := Install(tg); err != nil {
			t.Fatal(err)
		}
		changes, err := Install(tg)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			if c.Action != "unchanged" {
				t.Fatalf("%s: second install changed %s: %+v", agent, c.Path, c)
			}
		}
		data, _ := os.ReadFile(tg.settingsPath())
		if got := gjson.GetBytes(data, "hooks.SessionStart.0.hooks.0.command").String(); got != exe {
			t.Fatalf("%s: hook command %q, want %q", agent, got, exe)
		}
		if agent == "codex" {
			toml, _ := os.ReadFile(tg.mcpPath())
			if !strings.Contains(string(toml), `command = "C:\\Users\\ann\\go\\bin\\cairn.exe"`) {
				t.Fatalf("codex config.toml does not hold the escaped path:\n%s", toml)
			}
		}
		if _, err := Uninstall(tg); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{tg.settingsPath(), tg.mcpPath()} {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				b, _ := os.ReadFile(p)
				t.Fatalf("%s: uninstall left %s:\n%s", agent, filepath.Base(p), b)
			}
		}
	}
}
