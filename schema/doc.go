// Package schema defines the memory document: its frontmatter fields, the
// kinds and their policies, mem:// URIs, validation that names the file and
// line of a bad field, and the L0/L1/L2 tiers of a body.
//
// The package never touches disk or git: it turns bytes into a Memory and a
// Memory back into bytes. Rewriting a hand-written file changes only the
// lines of the fields that changed, so git diffs of cairn's own edits stay
// minimal and unknown fields survive untouched.
package schema
