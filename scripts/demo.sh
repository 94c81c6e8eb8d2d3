#!/usr/bin/env bash
# cairn's main job end to end on a temporary project: no server, no API key.
set -euo pipefail
CAIRN=$(cd "$(dirname "${1:-bin/cairn}")" && pwd)/$(basename "${1:-bin/cairn}")
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
