package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"
)

// editorCommand is $VISUAL, then $EDITOR, then the platform's default
// (vi, as git does; Notepad on Windows).
func editorCommand() string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if e := strings.TrimSpace(os.Getenv(v)); e != "" {
			return e
		}
	}
	return defaultEditor
}

// runEditor opens path in the user's editor; EDITOR may carry arguments
// ("code --wait").
func runEditor(env *Env, path string) error {
	ed := editorCommand()
	cmd := editorCmd(ed, path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%w: editor %q failed: %v", errAborted, ed, err)
	}
	return nil
}

// splitCommandLine splits an editor setting written for Windows, where no
// shell interprets it: a program, possibly in double quotes because its
// path holds spaces ("C:\Program Files\...\subl.exe" -w), then arguments
// separated by spaces. A whole setting that names an existing file is the
// program, quotes or not.
func splitCommandLine(s string, exists func(string) bool) (string, []string) {
	s = strings.TrimSpace(s)
	if exists(s) {
		return s, nil
	}
	if strings.HasPrefix(s, `"`) {
		if end := strings.IndexByte(s[1:], '"'); end >= 0 {
			return s[1 : end+1], strings.Fields(s[end+2:])
		}
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return "", nil
	}
	return f[0], f[1:]
}

// draftFile writes content to a temp file named like the memory, so the
// editor picks markdown highlighting.
func draftFile(name string, content []byte) (string, error) {
	dir, err := os.MkdirTemp("", "cairn-edit-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, content, 0o600)
}

// interactive reports whether we can ask the user a question.
func interactive() bool {
	return term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stderr.Fd()))
}

// askRetry asks whether to reopen the editor after a validation error.
func askRetry(env *Env) bool {
	if !interactive() {
		return false
	}
	fmt.Fprint(env.Stderr, "Edit again? [Y/n] ")
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil && !errors.Is(err, os.ErrClosed) && line == "" {
		return false
	}
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "" || a == "y" || a == "yes"
}

// editLoop opens the draft until validate accepts it or the user gives up.
// It returns the final content and leaves the draft for the caller to
// remove once the content is safely committed; on give-up the draft stays
// on disk and its path is in the error.
func editLoop(env *Env, path string, original []byte, validate func([]byte) error) ([]byte, error) {
	for {
		if err := runEditor(env, path); err != nil {
			return nil, err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if string(data) == string(original) || strings.TrimSpace(string(data)) == "" {
			os.RemoveAll(filepath.Dir(path))
			return nil, fmt.Errorf("%w: no changes made", errAborted)
		}
		verr := validate(data)
		if verr == nil {
			return data, nil
		}
		for _, l := range strings.Split(verr.Error(), "\n") {
			fmt.Fprintf(env.Stderr, "cairn: %s\n", l)
		}
		if !askRetry(env) {
			return nil, fmt.Errorf("%w\nyour draft is kept in %s", verr, path)
		}
	}
}

// removeDraft deletes a draft once its content is committed.
func removeDraft(path string) { os.RemoveAll(filepath.Dir(path)) }
