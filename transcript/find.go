package transcript

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// Found is a past session's transcript.
type Found struct {
	Path  string    `json:"path"`
	Agent string    `json:"agent"` // claude-code, codex
	ID    string    `json:"id"`
	Cwd   string    `json:"cwd"`
	Start time.Time `json:"start"`
	Size  int64     `json:"size"`
}

// Homes are where the agents keep their sessions.
type Homes struct {
	Claude string // ~/.claude, or $CLAUDE_CONFIG_DIR
	Codex  string // ~/.codex, or $CODEX_HOME
}

// DefaultHomes reads the agents' homes from the environment.
func DefaultHomes() Homes {
	home, _ := os.UserHomeDir()
	h := Homes{Claude: os.Getenv("CLAUDE_CONFIG_DIR"), Codex: os.Getenv("CODEX_HOME")}
	if h.Claude == "" && home != "" {
		h.Claude = filepath.Join(home, ".claude")
	}
	if h.Codex == "" && home != "" {
		h.Codex = filepath.Join(home, ".codex")
	}
	return h
}

var reNonAlnum = lazyre.New(`[^A-Za-z0-9]`)

// ClaudeProjectDir is the directory Claude Code keeps a working
// directory's sessions in: the path with every other character a dash.
func ClaudeProjectDir(claudeHome, cwd string) string {
	return filepath.Join(claudeHome, "projects", reNonAlnum.ReplaceAllString(cwd, "-"))
}

// FindSessions lists the sessions agents recorded in projectDir or below
// it, oldest first: Claude Code's projects/<dir>/*.jsonl and Codex's
// sessions/**/rollout-*.jsonl whose working directory is the project.
// Subagent files are their parent session's; a compaction agent's replay
// counts only when its parent session's file is gone.
func FindSessions(projectDir string, h Homes) ([]Found, error) {
	projectDir = filepath.Clean(projectDir)
	var out []Found
	if h.Claude != "" {
		found, err := findClaude(projectDir, h.Claude)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	if h.Codex != "" {
		found, err := findCodex(projectDir, h.Codex)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out, nil
}

func findClaude(projectDir, home string) ([]Found, error) {
	root := filepath.Join(home, "projects")
	entries, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	prefix := filepath.Base(ClaudeProjectDir(home, projectDir))
	var out []Found
	for _, e := range entries {
		// The project's own directory, or a directory below it (a session
		// started in a subdirectory); a sibling sharing the prefix is told
		// apart by the working directory the session records.
		if !e.IsDir() || (e.Name() != prefix && !strings.HasPrefix(e.Name(), prefix+"-")) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		replays, _ := filepath.Glob(filepath.Join(dir, "*", "subagents", "agent-acompact-*.jsonl"))
		for _, r := range replays {
			parent := filepath.Dir(filepath.Dir(r)) + ".jsonl"
			if _, err := os.Stat(parent); os.IsNotExist(err) {
				files = append(files, r)
			}
		}
		for _, f := range files {
			if fd, ok := peek(f, "claude-code"); ok && inside(fd.Cwd, projectDir) {
				out = append(out, fd)
			}
		}
	}
	return out, nil
}

func findCodex(projectDir, home string) ([]Found, error) {
	root := filepath.Join(home, "sessions")
	var out []Found
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return filepath.SkipAll
			}
			return nil // an unreadable directory is skipped, not fatal
		}
		if d.IsDir() || !strings.HasPrefix(d.Name(), "rollout-") || !strings.HasSuffix(d.Name(), ".jsonl") {
			return nil
		}
		if fd, ok := peek(path, "codex"); ok && inside(fd.Cwd, projectDir) {
			out = append(out, fd)
		}
		return nil
	})
	return out, err
}

// inside reports whether dir is root or below it.
func inside(dir, root string) bool {
	if dir == "" {
		return false
	}
	dir = filepath.Clean(dir)
	return dir == root || strings.HasPrefix(dir, root+string(filepath.Separator))
}

// peek reads the first lines of a transcript for its id, working
// directory and start, without parsing the rest.
func peek(path, agent string) (Found, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return Found{}, false
	}
	f, err := os.Open(path)
	if err != nil {
		return Found{}, false
	}
	defer f.Close()
	fd := Found{Path: path, Agent: agent, Size: fi.Size()}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for i := 0; i < 50 && sc.Scan(); i++ {
		var l struct {
			Timestamp string `json:"timestamp"`
			SessionID string `json:"sessionId"`
			Cwd       string `json:"cwd"`
			Payload   struct {
				ID  string `json:"id"`
				Cwd string `json:"cwd"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		if fd.Start.IsZero() {
			fd.Start, _ = time.Parse(time.RFC3339Nano, l.Timestamp)
		}
		if fd.ID == "" {
			fd.ID = l.SessionID + l.Payload.ID
		}
		if fd.Cwd == "" {
			fd.Cwd = l.Cwd + l.Payload.Cwd
		}
		if fd.ID != "" && fd.Cwd != "" && !fd.Start.IsZero() {
			break
		}
	}
	if fd.Start.IsZero() {
		fd.Start = fi.ModTime()
	}
	return fd, fd.Cwd != ""
}
