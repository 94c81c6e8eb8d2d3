package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// Shapes of a session where a person tunes their own tools, invented.
func askSet(text string) transcript.Turn {
	return transcript.Turn{Ref: "p-" + text[:min(len(text), 12)], Speaker: transcript.Person, Text: text}
}

func agentSays(text string) transcript.Turn {
	return transcript.Turn{Ref: "a", Speaker: transcript.Agent, Text: text}
}

func setEdit(file, oldS, newS string) transcript.Turn {
	return transcript.Turn{Ref: "e", Speaker: transcript.Agent, Call: &transcript.Call{ID: "t-" + newS, Tool: "Edit", Files: []string{file},
		Input: map[string]any{"file_path": file, "old_string": oldS, "new_string": newS}, Status: transcript.OK}}
}

const (
	helixConf  = "/home/ana/dots/.config/helix/config.toml"
	zellijConf = "/home/ana/dots/.config/zellij/config.kdl"
	alaConf    = "/home/ana/dots/.config/alacritty/alacritty.toml"
)

func TestSettingsChosenByPerson(t *testing.T) {
	for _, tc := range []struct {
		name  string
		turns []transcript.Turn
		title string   // "" for silence
		body  []string // parts the body holds
	}{
		{"value named", []transcript.Turn{
			askSet("I want ayu_dark as my Helix theme."),
			setEdit(helixConf, `theme = "onedark"`, `theme = "ayu_dark"`),
			agentSays("Helix now uses ayu_dark."),
			askSet("Now commit it."),
		}, "Helix theme: ayu_dark", []string{"was onedark", ".config/helix/config.toml", `"I want ayu_dark as my Helix theme."`}},
		{"switch named by its setting", []transcript.Turn{
			askSet("My zellij looks busy. I want the simplified ui."),
			setEdit(zellijConf, "    mouse_mode true\n    simplified_ui false\n", "    mouse_mode true\n    simplified_ui true\n"),
		}, "Zellij simplified_ui: true", []string{"set to true (.config/zellij/config.kdl); was false", "I want the simplified ui."}},
		{"several tried, last kept", []transcript.Turn{
			askSet("lets try iosevka in alacritty"),
			setEdit(alaConf, `family = "JetBrains Mono"`, `family = "Iosevka Nerd Font"`),
			askSet("hmm, what about the other one you listed"),
			setEdit(alaConf, `family = "Iosevka Nerd Font"`, `family = "Cascadia Code Nerd Font"`),
			askSet("ok just use iosevka"),
			setEdit(alaConf, `family = "Cascadia Code Nerd Font"`, `family = "Iosevka Nerd Font"`),
			askSet("yes much better"),
		}, "Alacritty family: Iosevka Nerd Font", []string{"after trying Cascadia Code;", "was JetBrains Mono", "ok just use iosevka"}},
		{"agent chose the value", []transcript.Turn{
			askSet("the font in alacritty looks blurry, can you fix it?"),
			setEdit(alaConf, "size = 11", "size = 12.5"),
		}, "", nil},
		{"agent proposed, person only agreed", []transcript.Turn{
			askSet("letters in helix look cramped"),
			agentSays("Want me to set line-number = relative?"),
			askSet("yes do it"),
			setEdit(helixConf, `line-number = "absolute"`, `line-number = "relative"`),
		}, "", nil},
		{"not a setting line", []transcript.Turn{
			askSet("add a zellij binding to open a new tab with c"),
			setEdit(zellijConf, "    tmux {\n", "    tmux {\n        bind \"c\" { NewTab; SwitchToMode \"Normal\"; }\n"),
		}, "", nil},
		{"code project", []transcript.Turn{
			askSet("set the pool size to 20 in the app config"),
			setEdit("/home/ana/code/shop/config/app.toml", "pool = 10", "pool = 20"),
		}, "", nil},
		{"script next to a config", []transcript.Turn{
			askSet("make the calendar widget show 3 months"),
			setEdit("/home/ana/.config/waybar/scripts/cal.py", "months = 1", "months = 3"),
		}, "", nil},
		{"complained about after", []transcript.Turn{
			askSet("set the helix theme to gruvbox"),
			setEdit(helixConf, `theme = "onedark"`, `theme = "gruvbox"`),
			askSet("hmm it looks weird, not sure i like it"),
		}, "", nil},
		{"set back", []transcript.Turn{
			askSet("set the helix theme to gruvbox"),
			setEdit(helixConf, `theme = "onedark"`, `theme = "gruvbox"`),
			askSet("on second thought use onedark"),
			setEdit(helixConf, `theme = "gruvbox"`, `theme = "onedark"`),
		}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &transcript.Session{Cwd: "/home/ana/dots", Turns: tc.turns}
			got := extractSettings(s)
			if tc.title == "" {
				if len(got) != 0 {
					t.Fatalf("want silence, got %q: %q", got[0].Title, got[0].Body)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %d candidates, want 1: %+v", len(got), got)
			}
			if got[0].Title != tc.title {
				t.Errorf("title = %q, want %q", got[0].Title, tc.title)
			}
			for _, part := range tc.body {
				if !strings.Contains(got[0].Body, part) {
					t.Errorf("body %q lacks %q", got[0].Body, part)
				}
			}
		})
	}
}

// A subagent's edit is the subagent's choice, not the person's request.
func TestSettingsSubagentEditSilent(t *testing.T) {
	e := setEdit(helixConf, `theme = "onedark"`, `theme = "gruvbox"`)
	e.Sidechain = true
	s := &transcript.Session{Turns: []transcript.Turn{askSet("set the helix theme to gruvbox"), e}}
	if got := extractSettings(s); len(got) != 0 {
		t.Errorf("got %q", got[0].Title)
	}
}

func TestSettingLine(t *testing.T) {
	for line, want := range map[string][2]string{
		"theme = catppuccin-latte":             {"theme", "catppuccin-latte"},
		"    timeout = 300     # 5min":         {"timeout", "300"},
		"config.font = wezterm.font 'Iosevka'": {"config.font", "wezterm.font 'Iosevka'"},
		"    pane_frames true":                 {"pane_frames", "true"},
		`    default_shell "fish"`:             {"default_shell", `"fish"`},
		"return config":                        {},
		"# theme = nord":                       {},
		`bind "c" { NewTab; }`:                 {},
		"local x = {":                          {},
	} {
		k, v, ok := settingLine(line)
		if ok != (want[0] != "") || k != want[0] || v != want[1] {
			t.Errorf("%q: got %q %q %v, want %q", line, k, v, ok, want)
		}
	}
}
