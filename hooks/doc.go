// Package hooks speaks the agents' hook contracts: Claude Code and Codex
// call `cairn hook <event>` with a JSON payload on stdin and read a JSON
// answer on stdout. Session start and each prompt get a context pack;
// tool results go to the journal; stop and compaction capture what the
// session produced; session end hands the last capture to a detached
// process.
//
// Hooks fail open: garbage input, a missing or locked vault, a damaged
// cache, a panic: the agent gets exit 0 and no output, and the reason goes
// to a log under the vault's cache. The package holds no extraction or
// scoring logic; it wires events to extract and retrieve.
package hooks
