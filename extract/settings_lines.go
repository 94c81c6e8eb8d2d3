package extract

import (
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// What one edit of a tool's config file changed: the setting lines
// ("theme = x", "pane_frames false") whose key stayed and whose value did
// not. Anything else an edit does (blocks, code, comments) is no setting.

var (
	// reToolConfig is a file under a .config/<tool>/ folder, the place a
	// person's own tools keep their settings; project files are code.
	reToolConfig = lazyre.New(`(?:^|/)\.config/([A-Za-z0-9][\w.-]*)/`)
	// reSetEq is "key = value" (Ghostty, Hyprland, TOML, a Lua config's
	// "config.font = ...").
	reSetEq = lazyre.New(`^\s*([A-Za-z_][\w.-]*)\s*=\s*(\S.*?)\s*[,;]?\s*$`)
	// reSetSpace is "key value" with a literal value (KDL, Zellij): a
	// quoted string, a boolean or a number, so "return config" is not one.
	reSetSpace = lazyre.New(`^\s*([a-z][\w-]*)\s+("[^"]*"|'[^']*'|true|false|-?\d+(?:\.\d+)?)\s*;?\s*$`)
	// reTrailingComment is a comment after a value ("600  # 10min").
	reTrailingComment = lazyre.New(`\s+(?:#|//|--|;)\s.*$`)
	reQuoted          = lazyre.New(`"([^"]*)"|'([^']*)'`)
	// reConfigScript is a program kept with a tool's config (a waybar widget in
	// Python): its assignments are code, not settings.
	reConfigScript = lazyre.New(`(?i)\.(?:py|sh|bash|zsh|fish|js|mjs|cjs|ts|rb|pl|go|rs|c|h|cpp|java|php)$`)
)

// settingChange is one setting an edit changed.
type settingChange struct {
	file, tool string
	key        string
	from, to   string // values as written
	call       *transcript.Call
	at         int // index of the call's turn
}

// configTool is the tool a config file belongs to ("zellij" for
// .config/zellij/config.kdl), "" for a file that is not a tool's config.
func configTool(file string) string {
	file = strings.ReplaceAll(file, `\`, "/")
	m := reToolConfig.FindStringSubmatch(file)
	if m == nil || reConfigScript.MatchString(file) {
		return ""
	}
	return strings.ToLower(m[1])
}

// editPairs are the texts an edit replaced and wrote: Edit's strings,
// each of MultiEdit's.
func editPairs(c *transcript.Call) [][2]string {
	if c.Tool != "Edit" && c.Tool != "MultiEdit" {
		return nil
	}
	pair := func(m map[string]any) [2]string {
		o, _ := m["old_string"].(string)
		n, _ := m["new_string"].(string)
		return [2]string{o, n}
	}
	out := [][2]string{pair(c.Input)}
	if list, ok := c.Input["edits"].([]any); ok {
		for _, e := range list {
			if m, ok := e.(map[string]any); ok {
				out = append(out, pair(m))
			}
		}
	}
	return out
}

// changedSettings are the settings whose value one replacement changed:
// keys set once on each side, with different values.
func changedSettings(oldS, newS string) [][3]string {
	before, after := settingLines(oldS), settingLines(newS)
	var out [][3]string
	for _, k := range after.order {
		o, n := before.vals[k], after.vals[k]
		if len(o) != 1 || len(n) != 1 || o[0] == n[0] {
			continue
		}
		out = append(out, [3]string{k, o[0], n[0]})
	}
	return out
}

type settingSet struct {
	order []string
	vals  map[string][]string
}

func settingLines(text string) settingSet {
	set := settingSet{vals: map[string][]string{}}
	for _, l := range strings.Split(text, "\n") {
		k, v, ok := settingLine(l)
		if !ok {
			continue
		}
		if set.vals[k] == nil {
			set.order = append(set.order, k)
		}
		set.vals[k] = append(set.vals[k], v)
	}
	return set
}

// settingLine reads one "key = value" or "key value" line.
func settingLine(l string) (key, val string, ok bool) {
	t := strings.TrimSpace(l)
	if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "--") || strings.HasPrefix(t, ";") {
		return "", "", false
	}
	t = reTrailingComment.ReplaceAllString(t, "")
	m := reSetEq.FindStringSubmatch(t)
	if m == nil {
		m = reSetSpace.FindStringSubmatch(t)
	}
	if m == nil || strings.ContainsAny(m[2], "{}") {
		return "", "", false
	}
	return m[1], m[2], true
}

// shownValue is a value as a person names it: the quoted text of
// "wezterm.font 'Hack'", a bare value unquoted.
func shownValue(v string) string {
	if q := reQuoted.FindAllStringSubmatch(v, -1); len(q) == 1 {
		return q[0][1] + q[0][2]
	}
	return v
}

// settingName is the key as a reader says it: "font" for "config.font".
func settingName(key string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 && i+1 < len(key) {
		return key[i+1:]
	}
	return key
}
