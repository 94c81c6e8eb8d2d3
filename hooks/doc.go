// Package hooks speaks the agents' hook contracts (Claude Code, Codex):
// stdin JSON in, stdout JSON out, failing open. It wires events to extract
// and retrieve and holds no extraction or scoring logic of its own.
package hooks
