// Package app holds cairn's use cases, wired once from configuration.
//
// An App opens what a use case needs when it first needs it: the project
// and user vaults, each with the secret guard its own cairn.yaml asks for,
// their search caches, a retriever over them, the capture settings
// (redactor, enricher, instruction files). Every surface (the CLI in
// cmd/cairn, the agent hooks, the MCP server and the HTTP API in serve)
// builds one App and calls one method per request, so a memory remembered
// from the command line goes through the same redaction, deduplication and
// kind policies as one remembered by an agent over MCP, and an error means
// the same thing everywhere. Surfaces parse, call, and render; nothing
// here parses flags, speaks a protocol or prints.
package app
