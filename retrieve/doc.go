// Package retrieve decides what an agent sees: scoring and fusion of index
// results, decay, obligatory items, dedup, and context packs within token
// budgets. It reads memories and never writes them.
package retrieve
