package extract

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// extractSettings keeps the settings a person chose for their own tools
// ("Ghostty theme: brogrammer"): a key = value line of a .config/<tool>/
// file that the agent changed when the person's own words named the value
// (or the setting, for a switch turned on or off), and that the person did
// not take back or complain about. When they tried several values, the
// last is kept and the others named.
func extractSettings(s *transcript.Session) []Candidate {
	var out []Candidate
	for _, chain := range settingChains(s) {
		if c, ok := settingCandidate(s, chain); ok {
			out = append(out, c)
		}
	}
	return out
}

// askedChange is a setting change with what the person said since the
// edit before it: the request it answered.
type askedChange struct {
	settingChange
	asked []transcript.Turn
}

// settingChains are the setting changes of the session, grouped by file
// and key, in the order each setting was first changed.
func settingChains(s *transcript.Session) [][]askedChange {
	var window []transcript.Turn
	byKey := map[string]int{}
	var chains [][]askedChange
	for i, t := range s.Turns {
		if t.IsPerson() && t.Form != transcript.Pasted {
			window = append(window, t)
			continue
		}
		c := t.Call
		if c == nil || len(c.Files) == 0 || t.Prior {
			continue
		}
		asked := window
		window = nil // the next edit answers what is said after this one
		tool := configTool(c.Files[0])
		if t.Sidechain || len(c.Files) != 1 || tool == "" || c.Status == transcript.Failed || c.Status == transcript.NotRun {
			continue
		}
		for _, p := range editPairs(c) {
			for _, ch := range changedSettings(p[0], p[1]) {
				k := c.Files[0] + "\x00" + ch[0]
				j, ok := byKey[k]
				if !ok {
					j = len(chains)
					byKey[k] = j
					chains = append(chains, nil)
				}
				chains[j] = append(chains[j], askedChange{settingChange{file: c.Files[0], tool: tool, key: ch[0], from: ch[1], to: ch[2], call: c, at: i}, asked})
			}
		}
	}
	return chains
}

// settingCandidate is the preference a chain of changes to one setting
// leaves, if the person asked for its last value and kept it.
func settingCandidate(s *transcript.Session, chain []askedChange) (Candidate, bool) {
	last := chain[len(chain)-1]
	was, now := shownValue(chain[0].from), shownValue(last.to)
	if now == was || strings.TrimSpace(now) == "" {
		return Candidate{}, false // set back to what it was
	}
	quote, ref, ok := askedFor(last)
	if !ok || complainedAfter(s, last.at) {
		return Candidate{}, false
	}
	var tried []string
	for _, ch := range chain[:len(chain)-1] {
		if v := shownValue(ch.to); v != now && v != was && !slices.Contains(tried, v) {
			tried = append(tried, v)
		}
	}
	tool, name, file := toolSpelling(s, last.tool), settingName(last.key), shownFile(s, last.file)
	var b strings.Builder
	where := file
	if last.key != name {
		where = last.key + " in " + file
	}
	fmt.Fprintf(&b, "%s %s set to %s (%s)", tool, name, now, where)
	if len(tried) > 0 {
		fmt.Fprintf(&b, ", after trying %s", strings.Join(distinctParts(tried, now), " and "))
	}
	if was != "" {
		fmt.Fprintf(&b, "; was %s", was)
	}
	fmt.Fprintf(&b, ". The person asked: %q", quote)
	turns := []string{ref}
	tools := []string{}
	for _, ch := range chain {
		if ch.call.ID != "" {
			tools = append(tools, ch.call.ID)
		}
	}
	return Candidate{Kind: schema.KindPreference, Scope: schema.ScopeProject, Title: titleFrom(fmt.Sprintf("%s %s: %s", tool, name, now)),
		Body: b.String(), Tags: []string{"preference", "setting", last.tool}, Turns: turns, Tools: tools,
		Rule: "person asked for a setting the agent then changed in the tool's config", Confidence: 0.8, Time: s.Turns[last.at].Time}, true
}

// boolValues are values a person names by naming the setting: "there
// shouldn't be any pane labels" asks for pane_frames false.
var boolValues = map[string]bool{"true": true, "false": true, "on": true, "off": true, "yes": true, "no": true}

// settingFiller name no value or setting of their own.
var settingFiller = map[string]bool{"nerd": true, "font": true, "mono": true, "regular": true, "bold": true, "config": true, "settings": true,
	"setting": true, "option": true, "options": true, "enable": true, "enabled": true, "default": true, "wezterm": true}

// askedFor finds the person's sentence, since the edit before, that
// names the change's value, or its setting when the value is a switch.
func askedFor(ch askedChange) (quote, ref string, ok bool) {
	val := strings.ToLower(shownValue(ch.to))
	for i := len(ch.asked) - 1; i >= 0; i-- {
		t := ch.asked[i]
		for _, sent := range sentences(t.Text) {
			if namesValue(sent, val) || boolValues[val] && namesKey(sent, ch.key) {
				return clip(oneLine(sent), 160), t.Ref, true
			}
		}
	}
	return "", "", false
}

// namesValue: a word of the value, or the value's words run together
// ("victor mono" for VictorMono), in the person's words.
func namesValue(sent, val string) bool {
	said := words(sent)
	for _, w := range strings.Fields(val) {
		w = strings.Trim(w, `"'.,;`)
		if len(w) < 3 || settingFiller[w] || boolValues[w] || strings.IndexFunc(w, unicode.IsLetter) < 0 {
			continue
		}
		if slices.Contains(said, w) || len(w) >= 6 && strings.Contains(squash(sent), squash(w)) {
			return true
		}
	}
	return false
}

// namesKey: a word of the key ("pane" of pane_frames) in the person's
// words.
func namesKey(sent, key string) bool {
	said := words(sent)
	for _, w := range strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r == '_' || r == '.' || r == '-' }) {
		if len(w) >= 4 && !settingFiller[w] && slices.Contains(said, w) {
			return true
		}
	}
	return false
}

// reDislike is a person taking a change back or finding it wrong.
var reDislike = lazyre.New(`(?i)(?:^\W*(?:no|nope|nah)\b|\b(?:(?:don'?t|do not|not sure i) (?:like|want) (?:it|this|that)|not sure i like|revert|undo|change it back|put it back|go back to|(?:looks?|is|it'?s) (?:odd|weird|off|bad|wrong|worse|ugly)|didn'?t work|doesn'?t work|not working|still (?:the same|broken|there))\b)`)

// complainedAfter reports the person's next words after a change finding
// fault with it.
func complainedAfter(s *transcript.Session, at int) bool {
	for _, t := range s.Turns[at+1:] {
		if t.IsPerson() && t.Form != transcript.Pasted {
			return reDislike.MatchString(t.Text)
		}
	}
	return false
}

// toolSpelling is how the session writes a tool's name ("WezTerm" for
// wezterm): its most used spelling with a capital, else capitalised.
func toolSpelling(s *transcript.Session, tool string) string {
	count := map[string]int{}
	best := ""
	for _, t := range s.Turns {
		if t.Call != nil || t.Text == "" || !strings.Contains(strings.ToLower(t.Text), tool) {
			continue
		}
		for _, w := range strings.FieldsFunc(t.Text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if strings.EqualFold(w, tool) && w != strings.ToLower(w) {
				count[w]++
				if count[w] > count[best] {
					best = w
				}
			}
		}
	}
	if best != "" {
		return best
	}
	return strings.ToUpper(tool[:1]) + tool[1:]
}

// shownFile is a config file as a reader finds it: under ~ when it is
// in the home, else relative to the project.
func shownFile(s *transcript.Session, f string) string {
	if m := reHome.FindStringSubmatch(f); m != nil && (rel(s, f) == f || m[0] == s.Cwd+"/") {
		return "~/" + strings.TrimPrefix(f, m[0])
	}
	return rel(s, f)
}

// distinctParts names values by what sets them apart from the one kept:
// "FiraCode" and "VictorMono" beside "Hack Nerd Font Mono".
func distinctParts(vals []string, kept string) []string {
	k := strings.Fields(kept)
	out := make([]string, 0, len(vals))
	for _, v := range vals {
		f := strings.Fields(v)
		n := 0
		for n < len(f)-1 && n < len(k)-1 && f[len(f)-1-n] == k[len(k)-1-n] {
			n++
		}
		out = append(out, strings.Join(f[:len(f)-n], " "))
	}
	return out
}
