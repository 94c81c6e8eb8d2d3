// Package retrieve decides what an agent sees. It holds the one ranking
// model: it takes the candidates and signals the index returns for each
// vault, ranks each signal's lists together (fuse.go), and fuses them with
// the other signals
// (recency decay per kind, importance, access frequency, kind weight, link
// proximity, time windows named in the query, tag penalties, novelty for a
// session), resolves superseded memories to their successors, collapses
// near-duplicates, and builds context packs within token budgets. It also
// decides whether anything is relevant enough to inject for a user's prompt
// (prompt.go). It reads memories and never writes them.
//
// Every surface (cairn search, context packs, hooks, MCP, the retrieval
// benchmark) ranks through Search, so a benchmark figure describes what
// users get.
package retrieve
