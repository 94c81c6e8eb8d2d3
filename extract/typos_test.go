package extract

import (
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

func TestSpellerMendsTransposedLetters(t *testing.T) {
	agent := "Here is where the handler lives. I made the changes where you asked; the changes are in `pkg/auth`. " +
		"Where else? The changes build. It was quite quiet. Custoemr is the name in the code; where, where."
	s := &transcript.Session{Turns: []transcript.Turn{
		{Speaker: transcript.Person, Text: "when I ask wehre I need file paths"},
		{Speaker: transcript.Agent, Text: agent},
	}}
	sp := newSpeller(s)
	for _, tc := range []struct{ in, want string }{
		{"when I ask wehre I need file paths", "when I ask where I need file paths"},
		{"WHEN I ASK WEHRE I NEED FILE PATHS", "WHEN I ASK WHERE I NEED FILE PATHS"},
		{"Stop making chnages without checking", "Stop making changes without checking"},
		{"Chnages first", "Changes first"},
		// Code and names are spelled as their owners chose.
		{"see Backoffice.Chnages.Contact and chnages_test and `chnages`", "see Backoffice.Chnages.Contact and chnages_test and `chnages`"},
		{"the ChnagesView component", "the ChnagesView component"},
		// The agent wrote the word itself: not a typo in this session.
		{"the Custoemr type", "the Custoemr type"},
		// A real word one swap from another the agent used.
		{"keep it quite", "keep it quite"},
		{"a tiral run", "a tiral run"}, // the agent never wrote "trial"
		{"wrehe", "wrehe"},             // two swaps away
	} {
		if got := sp.mend(tc.in); got != tc.want {
			t.Errorf("mend(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
