// Package exchange moves memories in and out of cairn: exports of a vault
// (JSONL, a zip of the markdown files) and importers for the stores people
// leave for cairn (a claude-mem SQLite database, basic-memory or Obsidian
// markdown folders, Cline memory banks, and cairn's own exports).
//
// Importers only read; they turn what they find into extraction
// candidates, which go through redaction, dedup and the kinds' policies
// like any capture and land as commits naming their source.
package exchange
