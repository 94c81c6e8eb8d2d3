// Package retrieve decides what an agent sees. It takes the ranked lists
// the index returns for each vault and fuses them with the other signals
// (recency decay per kind, importance, access frequency, kind weight, link
// proximity, time windows named in the query, tag penalties, novelty for a
// session), resolves superseded memories to their successors, collapses
// near-duplicates, and builds context packs within token budgets. It reads
// memories and never writes them.
//
// Every surface (cairn search, context packs, hooks, MCP, the retrieval
// benchmark) ranks through Search, so a benchmark figure describes what
// users get.
package retrieve
