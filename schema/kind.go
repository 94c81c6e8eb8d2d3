package schema

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Kind names what a memory is. The kind decides where the memory lives, how a
// new candidate with the same subject is folded in, and how fast it decays.
type Kind string

// The kinds of the design table.
const (
	KindProfile    Kind = "profile"
	KindPreference Kind = "preference"
	KindPattern    Kind = "pattern"
	KindDecision   Kind = "decision"
	KindConstraint Kind = "constraint"
	KindEvent      Kind = "event"
	KindCase       Kind = "case"
	KindOutcome    Kind = "outcome"
	KindSession    Kind = "session"
	KindThread     Kind = "thread"
	KindReminder   Kind = "reminder"
)

// Policy says what happens when a new candidate has the same subject as an
// existing memory of the kind.
type Policy string

const (
	// PolicyMergeable folds the candidate into the existing file.
	PolicyMergeable Policy = "mergeable"
	// PolicySupersedable writes a new file and marks the old one superseded.
	PolicySupersedable Policy = "supersedable"
	// PolicyImmutable always writes a new file; duplicates are skipped.
	PolicyImmutable Policy = "immutable"
	// PolicyClosable keeps one file whose status moves from open to done.
	PolicyClosable Policy = "closable"
)

// KindInfo is the policy card of one kind.
type KindInfo struct {
	Kind       Kind
	Dir        string        // default directory under the vault root
	Policy     Policy        // merge policy
	Importance float64       // default importance when the file has none
	HalfLife   time.Duration // recency half-life; zero when DecayExempt
	// DecayExempt kinds keep their full weight however old they are: a
	// constraint from last year binds as much as one from this morning.
	DecayExempt bool
	// UserScoped kinds describe the person rather than the project and
	// belong in the user vault when they are captured automatically.
	UserScoped bool
	Doc        string // one line for help output
}

const day = 24 * time.Hour

var kinds = map[Kind]KindInfo{
	KindProfile:    {KindProfile, "profile", PolicyMergeable, 0.8, 0, true, true, "who the user is, how they work"},
	KindPreference: {KindPreference, "preferences", PolicyMergeable, 0.7, 0, true, true, "a stated preference (style, tools, habits)"},
	KindPattern:    {KindPattern, "patterns", PolicyMergeable, 0.6, 180 * day, false, false, "a recurring convention or idiom of the code"},
	KindDecision:   {KindDecision, "decisions", PolicySupersedable, 0.8, 365 * day, false, false, "a choice that was made and why"},
	KindConstraint: {KindConstraint, "constraints", PolicySupersedable, 0.9, 0, true, false, "a rule that must hold (must, never, always)"},
	KindEvent:      {KindEvent, "events", PolicyImmutable, 0.4, 30 * day, false, false, "something that happened"},
	KindCase:       {KindCase, "cases", PolicyImmutable, 0.6, 120 * day, false, false, "a gotcha: error, root cause, fix"},
	KindOutcome:    {KindOutcome, "outcomes", PolicyImmutable, 0.3, 14 * day, false, false, "what a session changed: files, commands, tests"},
	KindSession:    {KindSession, "sessions", PolicyImmutable, 0.4, 30 * day, false, false, "one summary per agent session"},
	KindThread:     {KindThread, "threads", PolicyClosable, 0.6, 60 * day, false, false, "an open question or todo"},
	KindReminder:   {KindReminder, "reminders", PolicyClosable, 0.7, 0, true, false, "something to bring up at a gate"},
}

// Info returns the policy card of k and whether k is a known kind.
func (k Kind) Info() (KindInfo, bool) {
	info, ok := kinds[k]
	return info, ok
}

// Valid reports whether k is a known kind.
func (k Kind) Valid() bool { _, ok := kinds[k]; return ok }

// ParseKind accepts a kind name, case-insensitively, and also the plural
// directory name ("decisions"), since users type both.
func ParseKind(s string) (Kind, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if k := Kind(s); k.Valid() {
		return k, nil
	}
	for k, info := range kinds {
		if info.Dir == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("%w: unknown kind %q (known: %s)", ErrInvalid, s, strings.Join(KindNames(), ", "))
}

// Kinds lists every kind in a stable order.
func Kinds() []KindInfo {
	out := make([]KindInfo, 0, len(kinds))
	for _, info := range kinds {
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}

// KindNames lists every kind name in a stable order.
func KindNames() []string {
	var names []string
	for _, info := range Kinds() {
		names = append(names, string(info.Kind))
	}
	return names
}

// Status is the lifecycle state of a memory.
type Status string

// Statuses. Closable kinds use open and done; StatusOpen and StatusActive
// both mean "current".
const (
	StatusActive     Status = "active"
	StatusOpen       Status = "open"
	StatusDone       Status = "done"
	StatusSuperseded Status = "superseded"
	StatusArchived   Status = "archived"
)

// Valid reports whether s is a known status.
func (s Status) Valid() bool {
	switch s {
	case StatusActive, StatusOpen, StatusDone, StatusSuperseded, StatusArchived:
		return true
	}
	return false
}

// Current reports whether a memory with this status should be offered as
// current knowledge.
func (s Status) Current() bool { return s == "" || s == StatusActive || s == StatusOpen }

// DefaultStatus is the status a new memory of kind k starts with.
func DefaultStatus(k Kind) Status {
	if info, ok := k.Info(); ok && info.Policy == PolicyClosable {
		return StatusOpen
	}
	return StatusActive
}
