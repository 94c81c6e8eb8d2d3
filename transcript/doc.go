// Package transcript reads what an agent recorded of a session (Claude
// Code transcripts, Codex rollouts, cairn's own journal) and cleans it into
// turns: who said what, what was injected in the person's place and by
// whom, which tool ran with which exit status and whether it ran at all,
// the session's real time span and its own title.
//
// Agents put a great deal of text in the user's role that no person typed:
// system reminders, IDE selections, slash-command templates, instruction
// files, compaction summaries, interrupt notices. Reading that as the
// person's words is how rules files became "constraints" and a compaction
// summary a session title. Everything downstream (package extract) reads
// only the clean turns this package produces, so that judgment lives in
// one place.
package transcript
