// Package extract turns agent transcripts and hook events into candidate
// memories: parsers, deterministic extractors, signal phrases, secret
// redaction, and the skip/merge/supersede decision. It hands candidates to
// the vault and never writes files itself.
package extract
