package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairnmem/cairn/internal/atomicfile"
	"github.com/tidwall/gjson"
	"github.com/tidwall/pretty"
	"github.com/tidwall/sjson"
)

// Target says where hooks go: which agent, and project or user settings.
type Target struct {
	Agent   string // claude or codex
	Scope   string // project or user
	Project string // project root, for project scope
	Home    string // home directory, for user scope
	Command string // how agents run cairn: "cairn" or an absolute path
}

// Change is one file install or uninstall touched.
type Change struct {
	Path   string   `json:"path"`
	Action string   `json:"action"` // created, updated, unchanged, removed
	Detail []string `json:"detail,omitempty"`
}

// timeouts are the seconds each hook may take: injection is quick; capture
// gets room; session end only starts a detached process.
var timeouts = map[string]int{"session-start": 10, "user-prompt": 10, "post-tool": 5, "pre-compact": 60, "stop": 60, "session-end": 5}

// codexEvents are the events Codex supports among cairn's.
var codexEvents = map[string]bool{"session-start": true, "user-prompt": true, "post-tool": true, "pre-compact": true, "stop": true}

func (t Target) settingsPath() string {
	switch {
	case t.Agent == "codex" && t.Scope == "user":
		return filepath.Join(t.Home, ".codex", "hooks.json")
	case t.Agent == "codex":
		return filepath.Join(t.Project, ".codex", "hooks.json")
	case t.Scope == "user":
		return filepath.Join(t.Home, ".claude", "settings.json")
	default:
		return filepath.Join(t.Project, ".claude", "settings.json")
	}
}

func (t Target) mcpPath() string {
	switch {
	case t.Agent == "codex" && t.Scope == "user":
		return filepath.Join(t.Home, ".codex", "config.toml")
	case t.Agent == "codex":
		return filepath.Join(t.Project, ".codex", "config.toml")
	case t.Scope == "user":
		return filepath.Join(t.Home, ".claude.json")
	default:
		return filepath.Join(t.Project, ".mcp.json")
	}
}

func (t Target) args(event string) []string {
	a := []string{"hook", event}
	if t.Agent == "codex" {
		a = append(a, "--agent", "codex")
	}
	return a
}

// ours reports whether a hook handler is one cairn installed.
func ours(h gjson.Result) bool {
	return isCairnCommand(h.Get("command").String()) && h.Get("args.0").String() == "hook"
}

// isCairnCommand reports whether a configured command runs cairn:
// "cairn", a path to it in either separator style, with ".exe" on
// Windows, or an older shell form "cairn hook ...". Settings files travel
// between machines, so every form is recognized on every OS.
func isCairnCommand(cmd string) bool {
	if IsCairnBinary(cmd) {
		return true
	}
	f := strings.Fields(cmd)
	return len(f) > 1 && IsCairnBinary(f[0])
}

// IsCairnBinary reports whether a path names a cairn executable: "cairn",
// or "cairn.exe" (any letter case of the extension), in any directory.
func IsCairnBinary(p string) bool {
	base := p[strings.LastIndexAny(p, `/\`)+1:]
	if len(base) > 4 && strings.EqualFold(base[len(base)-4:], ".exe") {
		base = base[:len(base)-4]
	}
	return base == "cairn"
}

// Install writes cairn's hooks and MCP server into the agent's settings,
// merging with what is there. Running it again changes nothing.
func Install(t Target) ([]Change, error) {
	var changes []Change
	c, err := editJSON(t.settingsPath(), func(doc string) (string, []string, error) { return addHooks(doc, t) })
	if err != nil {
		return changes, err
	}
	changes = append(changes, c)
	if t.Agent == "codex" {
		c, err = editTOML(t.mcpPath(), true, t.Command)
	} else {
		c, err = editJSON(t.mcpPath(), func(doc string) (string, []string, error) { return addMCP(doc, t) })
	}
	return append(changes, c), err
}

// Uninstall removes exactly what Install added.
func Uninstall(t Target) ([]Change, error) {
	var changes []Change
	c, err := editJSON(t.settingsPath(), removeHooks)
	if err != nil {
		return changes, err
	}
	changes = append(changes, c)
	if t.Agent == "codex" {
		c, err = editTOML(t.mcpPath(), false, t.Command)
	} else {
		c, err = editJSON(t.mcpPath(), removeMCP)
	}
	return append(changes, c), err
}

func addHooks(doc string, t Target) (string, []string, error) {
	var detail []string
	for _, ev := range Events {
		if t.Agent == "codex" && !codexEvents[ev] {
			continue
		}
		name := eventNames[ev]
		path := "hooks." + name
		present := false
		gjson.Get(doc, path).ForEach(func(_, group gjson.Result) bool {
			group.Get("hooks").ForEach(func(_, h gjson.Result) bool {
				if ours(h) && h.Get("args.1").String() == ev {
					present = true
				}
				return !present
			})
			return !present
		})
		if present {
			continue
		}
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": t.Command, "args": t.args(ev), "timeout": timeouts[ev]}}}
		switch ev {
		case "session-start":
			group["matcher"] = "startup|resume|clear|compact"
		case "post-tool":
			group["matcher"] = "*"
		}
		var err error
		if doc, err = sjson.Set(doc, path+".-1", group); err != nil {
			return doc, detail, err
		}
		detail = append(detail, "hook "+name+" → cairn "+strings.Join(t.args(ev), " "))
	}
	return doc, detail, nil
}

func removeHooks(doc string) (string, []string, error) {
	var detail []string
	hooks := gjson.Get(doc, "hooks")
	if !hooks.IsObject() {
		return doc, nil, nil
	}
	var events []string
	hooks.ForEach(func(k, _ gjson.Result) bool {
		events = append(events, k.String())
		return true
	})
	var err error
	for _, name := range events {
		base := "hooks." + escape(name)
		groups := gjson.Get(doc, base).Array()
		for gi := len(groups) - 1; gi >= 0; gi-- {
			handlers := groups[gi].Get("hooks").Array()
			removed := 0
			for hi := len(handlers) - 1; hi >= 0; hi-- {
				if ours(handlers[hi]) {
					if doc, err = sjson.Delete(doc, fmt.Sprintf("%s.%d.hooks.%d", base, gi, hi)); err != nil {
						return doc, detail, err
					}
					removed++
					detail = append(detail, "hook "+name)
				}
			}
			if removed > 0 && removed == len(handlers) {
				if doc, err = sjson.Delete(doc, fmt.Sprintf("%s.%d", base, gi)); err != nil {
					return doc, detail, err
				}
			}
		}
		if len(gjson.Get(doc, base).Array()) == 0 && len(groups) > 0 {
			if doc, err = sjson.Delete(doc, base); err != nil {
				return doc, detail, err
			}
		}
	}
	if h := gjson.Get(doc, "hooks"); h.IsObject() && len(h.Map()) == 0 {
		doc, err = sjson.Delete(doc, "hooks")
	}
	return doc, detail, err
}

func escape(k string) string { return strings.NewReplacer(".", `\.`, "*", `\*`, "?", `\?`).Replace(k) }

func addMCP(doc string, t Target) (string, []string, error) {
	if gjson.Get(doc, "mcpServers.cairn").Exists() {
		return doc, nil, nil
	}
	doc, err := sjson.Set(doc, "mcpServers.cairn", map[string]any{"command": t.Command, "args": []string{"mcp"}})
	return doc, []string{"MCP server cairn → cairn mcp"}, err
}

func removeMCP(doc string) (string, []string, error) {
	s := gjson.Get(doc, "mcpServers.cairn")
	if !s.Exists() || !isCairnCommand(s.Get("command").String()) {
		return doc, nil, nil
	}
	doc, err := sjson.Delete(doc, "mcpServers.cairn")
	if err == nil {
		if m := gjson.Get(doc, "mcpServers"); m.IsObject() && len(m.Map()) == 0 {
			doc, err = sjson.Delete(doc, "mcpServers")
		}
	}
	return doc, []string{"MCP server cairn"}, err
}

// editJSON applies edit to a JSON file, keeping every other key in place
// and in order; a file that does not exist is created, one left empty by
// an uninstall is removed if cairn created nothing else in it.
func editJSON(path string, edit func(string) (string, []string, error)) (Change, error) {
	ch := Change{Path: path, Action: "unchanged"}
	old, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return ch, err
	}
	doc := string(old)
	if strings.TrimSpace(doc) == "" {
		doc = "{}"
	}
	if !gjson.Valid(doc) {
		return ch, fmt.Errorf("%s is not valid JSON; fix it by hand, cairn will not overwrite it", path)
	}
	out, detail, err := edit(doc)
	if err != nil {
		return ch, fmt.Errorf("%s: %w", path, err)
	}
	if len(detail) == 0 {
		return ch, nil
	}
	ch.Detail = detail
	formatted := pretty.PrettyOptions([]byte(out), &pretty.Options{Width: 100, Indent: "  "})
	if exists && bytes.Equal(bytes.TrimSpace(formatted), []byte("{}")) {
		ch.Action = "removed"
		return ch, os.Remove(path)
	}
	if !exists {
		ch.Action = "created"
	} else {
		ch.Action = "updated"
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return ch, err
	}
	return ch, writeAtomic(path, formatted)
}

const tomlBegin, tomlEnd = "# >>> cairn mcp server (cairn install codex)", "# <<< cairn mcp server"

// editTOML adds or removes cairn's MCP block in Codex's config.toml,
// between markers so uninstall removes exactly it.
func editTOML(path string, add bool, command string) (Change, error) {
	ch := Change{Path: path, Action: "unchanged"}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return ch, err
	}
	s := string(old)
	begin, end := strings.Index(s, tomlBegin), strings.Index(s, tomlEnd)
	has := begin >= 0 && end > begin
	switch {
	case add && has, !add && !has:
		return ch, nil
	case add:
		if strings.Contains(s, "[mcp_servers.cairn]") {
			return ch, nil // configured by hand: leave it
		}
		block := fmt.Sprintf("%s\n[mcp_servers.cairn]\ncommand = %q\nargs = [\"mcp\"]\n%s\n", tomlBegin, command, tomlEnd)
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		if s != "" {
			s += "\n"
		}
		s += block
		ch.Action, ch.Detail = "updated", []string{"MCP server cairn → cairn mcp"}
		if len(old) == 0 {
			ch.Action = "created"
		}
	default:
		stop := end + len(tomlEnd)
		if stop < len(s) && s[stop] == '\n' {
			stop++
		}
		s = strings.TrimRight(s[:begin], "\n") + "\n" + s[stop:]
		if strings.TrimSpace(s) == "" {
			ch.Action, ch.Detail = "removed", []string{"MCP server cairn"}
			return ch, os.Remove(path)
		}
		ch.Action, ch.Detail = "updated", []string{"MCP server cairn"}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return ch, err
	}
	return ch, writeAtomic(path, []byte(s))
}

// writeAtomic replaces path, keeping its permissions (~/.claude.json is
// private to its owner).
func writeAtomic(path string, data []byte) error {
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	tmp := path + ".cairn-tmp"
	if err := os.WriteFile(tmp, data, perm); err != nil {
		return err
	}
	if err := os.Chmod(tmp, perm); err != nil {
		return err
	}
	return atomicfile.Rename(tmp, path)
}
