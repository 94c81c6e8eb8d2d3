package schema

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// A vault travels through git between Linux, macOS and Windows, so the
// names of its files follow the strictest of their rules everywhere.
// Enforcing them on Linux too is what keeps a vault written there from
// failing to check out, or losing a file, on a teammate's laptop.

// maxPath bounds a memory's path inside the vault, ".md" included. Windows
// tools (git for Windows without core.longpaths, Explorer, many editors)
// stop at 260 characters for the whole path; 180 leaves about 70 for the
// directory holding .memory/.
const maxPath = 180

// windowsReserved are device names Windows will not use as a file or
// directory name, with or without an extension, in any letter case.
var windowsReserved = map[string]bool{
	"con": true, "prn": true, "aux": true, "nul": true,
	"com0": true, "com1": true, "com2": true, "com3": true, "com4": true, "com5": true, "com6": true, "com7": true, "com8": true, "com9": true,
	"lpt0": true, "lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true, "lpt5": true, "lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true,
	// COM¹ and the like are reserved too; segments refuse superscripts anyway.
}

// reservedName reports whether a path segment (or file name) is a Windows
// device name: "con", "NUL", "aux.md", "com1.backup".
func reservedName(seg string) bool {
	stem, _, _ := strings.Cut(seg, ".")
	return windowsReserved[strings.ToLower(stem)]
}

// checkPortableSegment applies the rules other platforms add to a path
// segment that is otherwise valid.
func checkPortableSegment(seg string) error {
	switch {
	case reservedName(seg):
		return fmt.Errorf("path segment %q is a reserved device name on Windows (con, prn, aux, nul, com1-9, lpt1-9)", seg)
	case strings.HasSuffix(seg, "."):
		return fmt.Errorf("path segment %q ends with '.', which Windows drops", seg)
	}
	return nil
}

// checkPortablePath bounds the whole path.
func checkPortablePath(p string) error {
	if n := len(p) + len(".md"); n > maxPath {
		return fmt.Errorf("path is %d bytes, longer than %d (Windows limits whole paths to 260 characters)", n, maxPath)
	}
	return nil
}

var folder = cases.Fold()

// FoldKey is the form of a vault path under which macOS (APFS, HFS+) and
// Windows (NTFS) default file systems find a file: letter case folded and
// Unicode normalized. Two paths with the same key are one file there.
func FoldKey(p string) string {
	return folder.String(norm.NFC.String(p))
}

// SameFold reports whether two paths name the same file on a
// case-insensitive file system. ASCII names, the common case, are compared
// without allocating.
func SameFold(a, b string) bool {
	if len(a) == len(b) && strings.EqualFold(a, b) {
		return true
	}
	if ascii(a) && ascii(b) {
		return false
	}
	return FoldKey(a) == FoldKey(b)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ParseArg parses a memory as a person names it on a command line: a
// mem:// URI, or a vault-relative path in which '\' separates directories
// as '/' does (Windows shells complete paths with backslashes). In files
// and links a backslash stays an error; see ParseURI.
func ParseArg(s string, def Scope) (URI, error) {
	if !strings.HasPrefix(strings.TrimSpace(s), Scheme) {
		s = strings.ReplaceAll(s, `\`, "/")
	}
	return ParseURI(s, def)
}
