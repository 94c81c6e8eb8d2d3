package schema

import (
	"fmt"
	"path"
	"strings"
	"unicode"
)

// Scope says which vault a memory lives in.
type Scope string

const (
	// ScopeProject is the vault under <project>/.memory.
	ScopeProject Scope = "project"
	// ScopeUser is the vault that follows the person across projects.
	ScopeUser Scope = "user"
)

// Valid reports whether s is a known scope.
func (s Scope) Valid() bool { return s == ScopeProject || s == ScopeUser }

// ParseScope accepts "project" or "user".
func ParseScope(s string) (Scope, error) {
	if sc := Scope(strings.ToLower(s)); sc.Valid() {
		return sc, nil
	}
	return "", fmt.Errorf("%w: unknown scope %q (want project or user)", ErrBadURI, s)
}

// Scheme prefixes every memory URI.
const Scheme = "mem://"

// URI addresses one memory: mem://<scope>/<dir>/.../<name>. The path maps
// one-to-one onto the vault: mem://project/decisions/use-bleve is the file
// decisions/use-bleve.md under the project vault.
type URI struct {
	Scope Scope
	Path  string // slash-separated, no extension, at least two segments
}

// maxSegment bounds one path segment; file systems cap names at 255 bytes.
const maxSegment = 120

// ParseURI parses a full URI or a vault-relative path ("decisions/x",
// "decisions/x.md"), which gets def as its scope. Every URI that parses is
// safe to join onto a vault root: no "..", no absolute paths, no dot files.
func ParseURI(s string, def Scope) (URI, error) {
	raw := s
	s = strings.TrimSpace(s)
	scope := def
	if strings.HasPrefix(s, Scheme) {
		rest := s[len(Scheme):]
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			return URI{}, fmt.Errorf("%w: %q has no path after the scope", ErrBadURI, raw)
		}
		sc, err := ParseScope(rest[:i])
		if err != nil {
			return URI{}, fmt.Errorf("%w: %q: scope must be project or user", ErrBadURI, raw)
		}
		scope, s = sc, rest[i+1:]
	} else if strings.Contains(s, "://") {
		return URI{}, fmt.Errorf("%w: %q: only mem:// URIs name memories", ErrBadURI, raw)
	}
	if !scope.Valid() {
		return URI{}, fmt.Errorf("%w: %q: no scope", ErrBadURI, raw)
	}
	if strings.HasPrefix(s, "/") || strings.Contains(s, `\`) {
		return URI{}, fmt.Errorf("%w: %q: absolute or backslashed paths are not memory paths", ErrBadURI, raw)
	}
	s = strings.TrimSuffix(strings.TrimSuffix(s, "/"), ".md")
	segs := strings.Split(s, "/")
	if len(segs) < 2 {
		return URI{}, fmt.Errorf("%w: %q: a memory lives in a directory, e.g. mem://%s/decisions/%s", ErrBadURI, raw, scope, s)
	}
	for _, seg := range segs {
		if err := checkSegment(seg); err != nil {
			return URI{}, fmt.Errorf("%w: %q: %v", ErrBadURI, raw, err)
		}
	}
	if err := checkPortablePath(s); err != nil {
		return URI{}, fmt.Errorf("%w: %q: %v", ErrBadURI, raw, err)
	}
	return URI{Scope: scope, Path: s}, nil
}

func checkSegment(seg string) error {
	switch {
	case seg == "":
		return fmt.Errorf("empty path segment")
	case seg == "." || seg == "..":
		return fmt.Errorf("path segment %q escapes the vault", seg)
	case strings.HasPrefix(seg, "."):
		return fmt.Errorf("path segment %q starts with a dot (reserved for cairn and git)", seg)
	case len(seg) > maxSegment:
		return fmt.Errorf("path segment longer than %d bytes", maxSegment)
	}
	for _, r := range seg {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("path segment %q has %q (use letters, digits, '-', '_' and '.')", seg, r)
		}
	}
	return checkPortableSegment(seg)
}

// URIFromRelPath maps a vault-relative file path ("decisions/x.md") to its URI.
func URIFromRelPath(rel string, scope Scope) (URI, error) {
	if !strings.HasSuffix(rel, ".md") {
		return URI{}, fmt.Errorf("%w: %q is not a markdown file", ErrBadURI, rel)
	}
	return ParseURI(strings.TrimSuffix(rel, ".md"), scope)
}

// String formats the URI as mem://scope/path.
func (u URI) String() string {
	if u.Path == "" {
		return Scheme + string(u.Scope)
	}
	return Scheme + string(u.Scope) + "/" + u.Path
}

// IsZero reports whether u is the zero URI.
func (u URI) IsZero() bool { return u.Scope == "" && u.Path == "" }

// RelPath is the slash-separated file path relative to the vault root.
func (u URI) RelPath() string { return u.Path + ".md" }

// Dir is the directory part of the path ("decisions").
func (u URI) Dir() string { return path.Dir(u.Path) }

// Name is the last path segment, the slug.
func (u URI) Name() string { return path.Base(u.Path) }

// WithName returns the URI of a sibling memory called name.
func (u URI) WithName(name string) URI {
	return URI{Scope: u.Scope, Path: path.Join(u.Dir(), name)}
}

// HasPrefix reports whether u lies at or under prefix, a URI, directory
// path or path fragment in the same scope ("mem://project/decisions",
// "decisions/", "decisions/use").
func (u URI) HasPrefix(scope Scope, prefix string) bool {
	if scope != "" && scope != u.Scope {
		return false
	}
	return prefix == "" || strings.HasPrefix(u.Path, prefix)
}

// ParsePrefix splits a listing prefix into scope and path fragment. An empty
// scope means "any scope". As in ParseArg, '\' separates directories in a
// path fragment.
func ParsePrefix(s string) (Scope, string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "", nil
	}
	if !strings.HasPrefix(s, Scheme) {
		return "", strings.TrimPrefix(strings.ReplaceAll(s, `\`, "/"), "/"), nil
	}
	rest := s[len(Scheme):]
	scopePart, p, _ := strings.Cut(rest, "/")
	sc, err := ParseScope(scopePart)
	if err != nil {
		return "", "", err
	}
	if strings.Contains(p, "..") {
		return "", "", fmt.Errorf("%w: %q escapes the vault", ErrBadURI, s)
	}
	return sc, p, nil
}

// MarshalText writes the URI in its mem:// form, in JSON too.
func (u URI) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses a full mem:// URI.
func (u *URI) UnmarshalText(b []byte) error {
	p, err := ParseURI(string(b), "")
	if err != nil {
		return err
	}
	*u = p
	return nil
}
