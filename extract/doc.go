// Package extract turns what happened in an agent session into candidate
// memories, with no model and no API key: parsers for Claude Code
// transcripts, Codex rollouts and cairn's own journal; secret redaction;
// named, versioned extractors for decisions, constraints, preferences,
// open threads, cases (error, root cause, fix) and outcomes; one summary
// per session; signal phrases that capture a prompt at once; and the
// policy that decides, against what the vault already holds, whether a
// candidate is skipped, created, merged or supersedes an older memory.
//
// Extraction never writes files itself: Apply hands the plan to the vault,
// which commits it in one batch. An optional LLM may enrich candidates;
// when it fails, the deterministic result stands.
package extract
