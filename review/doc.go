// Package review is the inbox of captured memories: what capture wrote
// from agent sessions that no person has kept yet. Keeping a memory stamps
// it `reviewed:` in its frontmatter; forgetting removes it; each decision
// is a commit. With `capture.review: required` in cairn.yaml, packs leave
// out what is still in the inbox.
package review
