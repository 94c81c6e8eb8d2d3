// Package serve exposes cairn to MCP clients (`cairn mcp`) and to browsers
// and scripts (`cairn serve`: a JSON API and an embedded web viewer).
//
// Both surfaces are thin: they translate requests into calls on Service,
// which calls the same vault, index, retrieve and extract APIs as the CLI.
// Nothing here ranks, extracts or validates on its own.
package serve
