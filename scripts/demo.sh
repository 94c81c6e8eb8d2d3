#!/usr/bin/env bash
# cairn's main job end to end on a temporary project: no server, no API key.
set -euo pipefail
CAIRN=$(cd "$(dirname "${1:-bin/cairn}")" && pwd)/$(basename "${1:-bin/cairn}")
RECORDED=$(cd "$(dirname "$0")/.." && pwd)/testdata/capture/recorded-session.jsonl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" XDG_DATA_HOME="$work/home/.local/share" CAIRN_SESSION=demo-session
mkdir -p "$HOME" "$work/project"
cd "$work/project"
git init -q .

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
run() { step "cairn $*"; "$CAIRN" "$@"; }

run init
run init --user
run remember --kind decision --title "Use bleve for full-text search" --tag search \
  --body "We index memories with bleve: pure Go, no cgo, BM25 out of the box.

## Details

SQLite FTS5 was the alternative; it needs cgo and complicates static builds."
run remember --kind constraint --title "Never commit secrets to the vault" --importance 0.95 \
  --body "Keys and tokens live in the environment. cairn redacts them before any write."
run remember --kind preference --title "Prefer table-driven tests" --scope user \
  --body "Go tests are table-driven with t.Run subtests."
run ls
run tree
run get mem://project/decisions/use-bleve-for-full-text-search --tier 1
run search "how do we handle API keys" --explain
run search tests --json
run remember --kind reminder --title "Rotate the staging keys" --gate session-start
run context --task "add a search filter for tags"
run related decisions/use-bleve-for-full-text-search

step "edit a memory by hand, then commit it"
printf '\nRevisited: bleve also gives us stemming for free.\n' >> .memory/decisions/use-bleve-for-full-text-search.md
run diff
run search stemming --mode text
run commit -m "note on stemming"
run log -n 3
run blame decisions/use-bleve-for-full-text-search
run doctor
run index status
step "git sees an ordinary repository"
git -C .memory log --oneline | cat
git -C .memory fsck --no-dangling && echo "fsck: clean"

step "the capture loop: install the hooks, then let a recorded Claude Code session fire them"
run install claude
transcript="$work/transcript.jsonl"
sed "s#PROJECT#$PWD#g" "$RECORDED" > "$transcript"
# hook EVENT JSON-FIELDS: what Claude Code sends on stdin; prints what the
# agent would be handed (decoded for reading).
hook() {
  local event=$1 fields=$2
  step "cairn hook $event  <<< {$fields}"
  printf '{"session_id":"%s","cwd":"%s","transcript_path":"%s",%s}' "$session" "$PWD" "$transcript" "$fields" |
    "$CAIRN" hook "$event" | sed -e 's/\\n/\n/g' -e 's/\\u003c/</g' -e 's/\\u003e/>/g' -e 's/\\"/"/g' -e 's/\\u0026/\&/g'
  echo "(exit $?)"
}
session=rec-7f3a
hook session-start '"source":"startup"'
hook user-prompt '"prompt":"The rate limiter drops bursts above 10 requests. Fix it. We decided to use a token bucket instead of the fixed window because bursts are legitimate."'
hook post-tool '"tool_name":"Bash","tool_use_id":"toolu_a1","tool_input":{"command":"go test ./limiter"},"tool_response":{"stdout":"--- FAIL: TestBurst","stderr":"","exit_code":1}'
hook post-tool '"tool_name":"Edit","tool_use_id":"toolu_a2","tool_input":{"file_path":"'"$PWD"'/limiter/limiter.go","old_string":"window","new_string":"bucket"},"tool_response":{"filePath":"limiter/limiter.go"}'
hook post-tool '"tool_name":"Bash","tool_use_id":"toolu_a3","tool_input":{"command":"go test ./limiter"},"tool_response":{"stdout":"ok  app/limiter 0.12s","stderr":"","exit_code":0}'
hook user-prompt '"prompt":"Remember this: the staging deploy reads GITHUB_TOKEN=ghp_R4nd0mT0k3nV4lu3Xy9ZaBcDeFgHiJkLmNoPq12 from the vault."'
hook stop '"stop_hook_active":false,"last_assistant_message":"Done: the limiter now uses a token bucket. TODO: add a benchmark for the bucket refill path."'
hook post-tool '"tool_name":"Bash","tool_input":{"command":"garbage'
step "garbage on stdin: exit 0, nothing printed, the reason is in the log"
tail -n 1 .memory/.cache/hooks.log
run ls
run get mem://project/cases/the-window-resets-only-at-the-start-of-each-second-so-a
step "every capture is a commit with trailers naming the session and code commit"
git -C .memory log -n 2 --format='%h %s%n%(trailers)' | cat
step "the secret never reached the vault"
grep -rn "GITHUB_TOKEN" .memory/patterns/ || true
run extract --replay --session-id rec-7f3a --dry-run
step "the next session starts with what this one left"
session=next-session
hook session-start '"source":"startup"'
step "what capture wrote waits for a person in the review inbox"
run review list
run review keep --all
