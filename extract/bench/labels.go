package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// ErrLabels marks a label file that cannot be read.
var ErrLabels = errors.New("bad label file")

// Item is one labeled thing: what mattered in a session, or what must not
// be written from it.
type Item struct {
	ID    string   `yaml:"id" json:"id"`
	Class string   `yaml:"class" json:"class"`
	Scope string   `yaml:"scope,omitempty" json:"scope,omitempty"`
	Kinds []string `yaml:"kinds,omitempty" json:"kinds,omitempty"`
	// Any lists alternative wordings; the terms of one, joined by " + ",
	// must all appear in a memory's title, summary or body.
	Any  []string `yaml:"any" json:"any"`
	Note string   `yaml:"note,omitempty" json:"note,omitempty"`
}

// Label is what a reader marked in one session.
type Label struct {
	Session    string `yaml:"session" json:"session"` // the transcript's file name
	Repo       string `yaml:"repo" json:"repo"`
	Agent      string `yaml:"agent" json:"agent"`
	About      string `yaml:"about" json:"about"`
	Split      string `yaml:"split,omitempty" json:"split,omitempty"` // tune or holdout
	Important  []Item `yaml:"important" json:"important"`
	Acceptable []Item `yaml:"acceptable" json:"acceptable"`
	Forbid     []Item `yaml:"forbid" json:"forbid"`
	file       string
}

// LoadLabels reads every *.yaml file of dir, keyed by session file name.
func LoadLabels(dir string) (map[string]*Label, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: no label files (*.yaml) in %s", ErrLabels, dir)
	}
	out := map[string]*Label{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var l Label
		if err := yaml.Unmarshal(data, &l); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrLabels, f, err)
		}
		if l.Session == "" {
			l.Session = strings.TrimSuffix(filepath.Base(f), ".yaml") + ".jsonl"
		}
		l.file = f
		for _, it := range append(append(append([]Item{}, l.Important...), l.Acceptable...), l.Forbid...) {
			if len(it.Any) == 0 {
				return nil, fmt.Errorf("%w: %s: item %s has no `any` phrases", ErrLabels, f, it.ID)
			}
		}
		out[l.Session] = &l
	}
	return out, nil
}

// matches reports whether a memory's text, of the given kind, holds the
// item: its kind is one of the item's (any kind when it names none) and
// all terms of one alternative appear.
func (it Item) matches(kind, text string) bool {
	if len(it.Kinds) > 0 && !contains(it.Kinds, kind) {
		return false
	}
	low := strings.ToLower(strings.Join(strings.Fields(text), " "))
	for _, alt := range it.Any {
		all := true
		for _, term := range strings.Split(alt, "+") {
			term = strings.ToLower(strings.Join(strings.Fields(term), " "))
			if term != "" && !strings.Contains(low, term) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) })
}
