package schema

import (
	"fmt"
	"strings"
	"time"
)

// maxTitle keeps titles to one readable line in listings and packs.
const maxTitle = 200

// Validate checks the memory against the schema and returns a
// *ValidationError naming each bad field (and its line, for parsed files).
func (m *Memory) Validate(file string) error {
	v := &ValidationError{}
	line := m.FieldLine
	switch {
	case m.Kind == "":
		v.add(file, 1, "kind", "required (one of %s)", strings.Join(KindNames(), ", "))
	case !m.Kind.Valid():
		v.add(file, line("kind"), "kind", "unknown kind %q (one of %s)", m.Kind, strings.Join(KindNames(), ", "))
	}
	switch {
	case strings.TrimSpace(m.Title) == "":
		v.add(file, orOne(line("title")), "title", "required")
	case strings.ContainsAny(m.Title, "\n\r"):
		v.add(file, line("title"), "title", "must be one line")
	case len(m.Title) > maxTitle:
		v.add(file, line("title"), "title", "longer than %d characters; move detail into the body", maxTitle)
	}
	if strings.ContainsAny(m.Summary, "\n\r") {
		v.add(file, line("summary"), "summary", "must be one line (it is the L0 tier); put more in the body")
	}
	for _, f := range []struct {
		name string
		val  *float64
	}{{"importance", m.Importance}, {"confidence", m.Confidence}} {
		if f.val != nil && (*f.val < 0 || *f.val > 1) {
			v.add(file, line(f.name), f.name, "must be between 0 and 1, found %v", *f.val)
		}
	}
	if m.Status != "" && !m.Status.Valid() {
		v.add(file, line("status"), "status", "unknown status %q (active, open, done, superseded, archived)", m.Status)
	}
	if m.Gate != "" {
		if _, err := ParseGate(m.Gate); err != nil {
			v.add(file, line("gate"), "gate", "%v", err)
		}
	}
	for _, t := range m.Tags {
		if t == "" || strings.ContainsAny(t, ",\n\r") {
			v.add(file, line("tags"), "tags", "tag %q must be a non-empty single word or phrase without commas", t)
		}
	}
	checkURIs := func(name string, uris []string) {
		for _, u := range uris {
			if !strings.HasPrefix(u, Scheme) {
				v.add(file, line(name), name, "%q is not a mem:// URI", u)
				continue
			}
			if _, err := ParseURI(u, ""); err != nil {
				v.add(file, line(name), name, "%v", err)
			}
		}
	}
	checkURIs("links", m.Links)
	checkURIs("supersedes", m.Supersedes)
	if m.SupersededBy != "" {
		checkURIs("superseded_by", []string{m.SupersededBy})
	}
	if !m.Created.IsZero() && !m.Updated.IsZero() && m.Updated.Before(m.Created) {
		v.add(file, line("updated"), "updated", "is before created (%s)", m.Created.Format(time.RFC3339))
	}
	return v.orNil()
}

func orOne(n int) int {
	if n == 0 {
		return 1
	}
	return n
}

// GateKind says when a reminder becomes obligatory.
type GateKind string

// Gate kinds.
const (
	GateAlways       GateKind = "always"
	GateSessionStart GateKind = "session-start"
	GateDue          GateKind = "due"
)

// Gate is a parsed reminder gate.
type Gate struct {
	Kind GateKind
	Due  time.Time // for GateDue: open from this time on
}

// ParseGate accepts "always", "session-start", or a due date/time.
func ParseGate(s string) (Gate, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "always":
		return Gate{Kind: GateAlways}, nil
	case "session-start":
		return Gate{Kind: GateSessionStart}, nil
	}
	t, err := ParseTime(strings.TrimPrefix(strings.TrimSpace(s), "due "))
	if err != nil {
		return Gate{}, fmt.Errorf("want always, session-start or a due date (2026-12-01), found %q", s)
	}
	return Gate{Kind: GateDue, Due: t}, nil
}

// Open reports whether the gate lets its reminder through at now, for a
// pack built at session start or later in a session.
func (g Gate) Open(now time.Time, sessionStart bool) bool {
	switch g.Kind {
	case GateAlways:
		return true
	case GateSessionStart:
		return sessionStart
	case GateDue:
		return !now.Before(g.Due)
	}
	return false
}
