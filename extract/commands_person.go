package extract

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/transcript"
)

// rePastedPrompt is a shell prompt line in what the person pasted:
// "$ make lint" heading the output they want explained.
var rePastedPrompt = lazyre.New(`(?m)^\s*\$ +(\S.{2,158})$`)

// personChecks are the checks the person runs themselves, seen as the
// prompt line of terminal output they pasted. That it failed says
// nothing against the command: they pasted it because of what it found.
func personChecks(s *transcript.Session) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range s.Turns {
		if !t.IsPerson() {
			continue
		}
		for _, m := range rePastedPrompt.FindAllStringSubmatch(t.Text, 4) {
			kind, cmd, dir, ok := verifyCommand(strings.TrimSpace(m[1]))
			if !ok || dir != "" || seen[cmd] {
				continue
			}
			seen[cmd] = true
			out = append(out, fmt.Sprintf("- %s: `%s` (the person runs it)", kind, cmd))
		}
	}
	return out
}
