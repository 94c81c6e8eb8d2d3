package extract

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// offer is what an agent turn put to the person to choose from: one
// question between alternatives, or numbered questions that each offer
// some.
type offer struct {
	questions []question
}

type question struct {
	label   string // its number in a numbered list of questions
	text    string
	options []option
}

type option struct {
	label string // "1", "A": what a reply can pick it by
	text  string
	bold  string // its bold name, when the agent gave one
}

// head is an option's name: its bold part, or its words up to a dash or
// colon.
func (o option) head() string {
	if o.bold != "" {
		return o.bold
	}
	h := o.text
	for _, sep := range []string{" — ", " – ", " - ", ": ", ", "} {
		if i := strings.Index(h, sep); i > 10 {
			h = h[:i]
		}
	}
	return clip(h, 70)
}

// about is what an offer asks and offers, for telling two offers apart.
func (o offer) about() string {
	var b strings.Builder
	for _, q := range o.questions {
		b.WriteString(q.text + " ")
		for _, opt := range q.options {
			b.WriteString(opt.text + " ")
		}
	}
	return b.String()
}

var (
	reNumItem    = lazyre.New(`^\s*(\d{1,2})[.)]\s+(.+)$`)
	reOptionItem = lazyre.New(`(?i)^\s*(?:[-*]\s+)?\**\s*option\s+([a-d1-9])\b\s*\**\s*[:.)—–-]*\s*\**\s*(.*)$`)
	reBoldItem   = lazyre.New(`^\s*[-*]\s+\*\*(.+?)\*\*\s*(.*)$`)
	reBoldHead   = lazyre.New(`^\*\*(.+?)\*\*\s*[—–:-]*\s*(.*)$`)
	// reAltAsk asks to pick one of alternatives, not to accept work.
	reAltAsk = lazyre.New(`(?i)\b(?:which (?:one|option|approach|way|style|version|direction|do you prefer|would you prefer|should|feels|fits|sounds)|(?:do|would) you prefer|prefer\?|would you rather|either)\b`)
	// reAltIntro announces alternatives before listing them.
	reAltIntro = lazyre.New(`(?i)\b(?:two|three|2|3|a few|some) (?:options|approaches|alternatives|choices|ways)\b|\boptions?:\s*$`)
	// reMenuAsk offers a menu of things to do, or something to try: a
	// pick from it is a task, not a decision.
	reMenuAsk = lazyre.New(`(?i)\b(?:any of (?:these|them|those)|all of (?:these|them|those)|pick and choose|try|which of these (?:do you want|should i (?:do|fix|implement)))\b`)
	// reInlineLead opens a question between alternatives named inline.
	reInlineLead = lazyre.New(`(?i)(?:^|[:—–]\s*|\b)(?:should (?:i|we|it|this|that|the \w+|[\w.-]+(?: [\w.-]+)? be|[\w.-]+)|shall (?:i|we)|do you want (?:it|this|that|them|the \w+) to|would you (?:prefer|rather)|do you prefer|which (?:option|approach|one|way|do you prefer|would you prefer)|is (?:it|this|that)|do we)\b\s*[:—–-]*\s*`)
	reParen      = lazyre.New(`\s*\([^()]*\)`)
	reOrSplit    = lazyre.New(`(?i),?\s+or\s+`)
	reNotAnAlt   = lazyre.New(`(?i)^(?:something else|anything else|both|neither|not|none|all|either|else|otherwise|vice versa)\b`)
	reAltLead    = lazyre.New(`(?i)^(?:it to|to|we|i|just|instead|rather|you|be)\s+`)
	// reVersus names two alternatives: "single-role vs multi-role".
	reVersus = lazyre.New(`([\w:./-]+(?: [\w:./-]+){0,2}) (?:vs\.?|versus) ([\w:./-]+(?: [\w:./-]+){0,2})`)
	// reIfPrefer offers the other way: "If you prefer X (instead of Y), we can…".
	reIfPrefer = lazyre.New(`(?i)^if you(?:'d| would)? (?:prefer|rather|want|would rather)\s+(.+?)\s*\(?\b(?:instead of|rather than)\s+([^),]+)\)?,?\s*(.*)$`)
	reOffering = lazyre.New(`(?i)\b(?:if you (?:want|prefer|'d rather)|i can|we can|which|prefer)\b`)
	reWeCan    = lazyre.New(`(?i)^(?:we|i) (?:can|could|would) `)
)

// parseOffer reads the alternatives an agent turn offers: a numbered,
// lettered or bold-named list closed by a question to pick one, numbered
// questions that each name alternatives, or alternatives named inline in
// its closing question or paragraph.
func parseOffer(text string) (offer, bool) {
	// An offer closes a turn: a long report's beginning is not part of it.
	if len(text) > 4000 {
		text = text[len(text)-4000:]
		text = text[strings.IndexByte(text, '\n')+1:]
	}
	if !mayOffer(text) {
		return offer{}, false
	}
	lines := slices.Collect(proseLines(text))
	items, before, after := lastList(lines)
	if len(items) >= 2 {
		if asksEach(items) {
			// Clarifying questions before work starts ("1. split or regex?
			// 2. format the count or a log field?") settle details of that
			// one piece of work, which its code then holds: readers
			// deleted them as one-off. "Two decisions to make" are not.
			if reClarify.MatchString(strings.Join(lastParagraph(before), " ")) {
				return offer{}, false
			}
			var o offer
			for _, it := range items {
				for _, q := range splitSentences(it.text) {
					if alts := inlineAlternatives(q); len(alts) >= 2 && strings.HasSuffix(q, "?") {
						o.questions = append(o.questions, question{label: it.label, text: clip(plain(it.text), 160), options: alts})
						break
					}
				}
			}
			return o, len(o.questions) > 0
		}
		ask := closingQuestion(after)
		intro := false
		if para := lastParagraph(before); len(para) > 0 {
			intro = reAltIntro.MatchString(para[len(para)-1])
		}
		labeled := strings.IndexFunc(items[0].label, func(r rune) bool { return r >= 'A' && r <= 'D' }) == 0
		if ask != "" && !reMenuAsk.MatchString(ask) && (reAltAsk.MatchString(ask) || intro || labeled) {
			return offer{questions: []question{{text: clip(withContext(ask, before), 260), options: items}}}, true
		}
	}
	// No list: the alternatives are in the closing paragraph.
	para := lastParagraph(lines)
	sents := sentences(strings.Join(para, "\n"))
	if len(sents) == 0 {
		return offer{}, false
	}
	if q := sents[len(sents)-1]; strings.HasSuffix(q, "?") && !reMenuAsk.MatchString(q) {
		if alts := inlineAlternatives(q); len(alts) >= 2 {
			return offer{questions: []question{{text: clip(q, 160), options: alts}}}, true
		}
	}
	for _, s := range sents {
		if m := reIfPrefer.FindStringSubmatch(s); m != nil {
			way := strings.TrimRight(m[1], " ,")
			how := reWeCan.ReplaceAllString(strings.TrimRight(m[3], " ,."), "")
			chosen := option{text: strings.TrimRight(way+": "+how, ": "), bold: way}
			return offer{questions: []question{{text: clip(s, 200), options: []option{chosen, {text: strings.TrimSpace(m[2])}}}}}, true
		}
	}
	for _, s := range sents {
		if !strings.Contains(s, " vs") && !strings.Contains(s, " versus ") {
			continue
		}
		if m := reVersus.FindStringSubmatch(s); m != nil && reOffering.MatchString(s) {
			return offer{questions: []question{{text: clip(s, 160), options: []option{{text: m[1]}, {text: m[2]}}}}}, true
		}
	}
	return offer{}, false
}

// askWords say "pick one" without saying what about.
var askWords = map[string]bool{"direction": true, "sounds": true, "best": true, "feels": true, "right": true, "prefer": true, "option": true,
	"options": true, "one": true, "appeals": true, "look": true, "looks": true, "good": true, "fits": true, "think": true, "go": true, "like": true}

// withContext puts a bare "Which do you prefer?" after what the list
// answers: the last sentences before it.
func withContext(ask string, before []string) string {
	n := 0
	for w := range subject(ask) {
		if !askWords[w] {
			n++
		}
	}
	if n >= 2 {
		return ask
	}
	sents := lineSentences(strings.Join(lastParagraph(before), "\n"))
	if len(sents) > 2 {
		sents = sents[len(sents)-2:]
	}
	if len(sents) == 0 {
		return ask
	}
	return clip(strings.Join(sents, " "), 200) + " " + ask
}

// mayOffer is a quick look for what every offer has: a question, or
// alternatives named.
func mayOffer(text string) bool {
	if strings.Contains(text, "?") {
		return true
	}
	l := strings.ToLower(text)
	return strings.Contains(l, "let me know which") || strings.Contains(l, " vs") || strings.Contains(l, " versus ") ||
		strings.Contains(l, "instead of") || strings.Contains(l, "rather than")
}

// lastList finds the last list of alternatives in lines: numbered from 1,
// "Option A/B", or bullets that start with a bold name; with the lines
// before and after it.
func lastList(lines []string) (items []option, before, after []string) {
	var cur []option
	curStart, curLast, start, last := -1, -1, -1, -1
	flush := func() {
		if len(cur) >= 2 {
			items, start, last = cur, curStart, curLast
		}
		cur = nil
	}
	for i, l := range lines {
		it, ok := offerItem(l)
		switch {
		case ok && len(cur) > 0 && next(cur[len(cur)-1].label, it.label):
			cur, curLast = append(cur, it), i
		case ok && (it.label == "1" || it.label == "A" || it.label == "*"):
			flush()
			cur, curStart, curLast = []option{it}, i, i
		case ok:
			flush()
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t"):
			// blank lines and an item's continuation keep a list open
		case len(cur) > 0 && cur[0].label == "*":
			flush() // prose ends a bullet list; numbers say where theirs goes on
		}
	}
	flush()
	if start < 0 {
		return nil, nil, nil
	}
	return items, lines[:start], lines[last+1:]
}

func next(prev, cur string) bool {
	if prev == "*" {
		return cur == "*"
	}
	if len(prev) == 1 && len(cur) == 1 && strings.ToUpper(cur)[0] == strings.ToUpper(prev)[0]+1 {
		return true // B after A
	}
	n, err := strconv.Atoi(prev)
	return err == nil && cur == strconv.Itoa(n+1)
}

// offerItem reads one line of a list of alternatives.
func offerItem(l string) (option, bool) {
	t := strings.TrimLeft(l, " \t")
	if t == "" || !(t[0] >= '0' && t[0] <= '9' || t[0] == '-' || t[0] == '*' || t[0] == 'O' || t[0] == 'o') {
		return option{}, false // a quick no for prose lines
	}
	if m := reOptionItem.FindStringSubmatch(l); m != nil {
		bold, text := boldHead(m[2])
		return option{label: strings.ToUpper(m[1]), text: text, bold: bold}, true
	}
	if m := reNumItem.FindStringSubmatch(l); m != nil {
		bold, text := boldHead(strings.TrimSpace(m[2]))
		return option{label: m[1], text: text, bold: bold}, true
	}
	if m := reBoldItem.FindStringSubmatch(l); m != nil {
		bold, text := boldHead("**" + m[1] + "** " + m[2])
		return option{label: "*", text: text, bold: bold}, true
	}
	return option{}, false
}

// boldHead splits "**Name** — what it is" into its name and plain text.
func boldHead(s string) (bold, text string) {
	if m := reBoldHead.FindStringSubmatch(s); m != nil {
		bold = strings.Trim(plain(m[1]), " :—–-")
	}
	return bold, plain(s)
}

// reClarify introduces questions about the request at hand.
var reClarify = lazyre.New(`(?i)\bclarif(?:y|ying|ication)\b|\bbefore i (?:start|begin|write|implement)\b|\bunclear\b`)

// asksEach reports a numbered list of questions rather than of options.
func asksEach(items []option) bool {
	n := 0
	for _, it := range items {
		if strings.HasSuffix(strings.TrimSpace(it.text), "?") {
			n++
		}
	}
	return n*2 > len(items)
}

// closingQuestion is the question after a list that asks to pick.
func closingQuestion(after []string) string {
	sents := lineSentences(strings.Join(after, "\n"))
	for i := len(sents) - 1; i >= 0; i-- {
		if strings.HasSuffix(sents[i], "?") || strings.Contains(strings.ToLower(sents[i]), "let me know which") {
			return sents[i]
		}
	}
	return ""
}

// lineSentences are the sentences of a text's lines, however short:
// "2", "option B", "Which one?" are whole answers and questions.
func lineSentences(text string) []string {
	var out []string
	for l := range proseLines(text) {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "|") || strings.HasPrefix(l, ">") {
			continue
		}
		for _, s := range splitSentences(plain(l)) {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

func lastParagraph(lines []string) []string {
	end := len(lines)
	for end > 0 && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	start := end
	for start > 0 && strings.TrimSpace(lines[start-1]) != "" && !strings.HasPrefix(strings.TrimSpace(lines[start-1]), "---") {
		start--
	}
	return lines[start:end]
}

// inlineAlternatives reads "Should I X, or Y?" and "Which option — X or
// Y?" into X and Y.
func inlineAlternatives(q string) []option {
	q = reParen.ReplaceAllString(plain(q), "")
	loc := reInlineLead.FindStringIndex(q)
	if loc == nil {
		return nil
	}
	rest := strings.TrimRight(strings.TrimSpace(q[loc[1]:]), "?. ")
	if _, after, ok := strings.Cut(rest, " — "); ok {
		rest = after // "do we keep — X or Y"
	}
	if !reOrSplit.MatchString(rest) {
		return nil
	}
	var out []option
	for _, p := range splitAlternatives(rest) {
		p = strings.TrimSpace(reAltLead.ReplaceAllString(strings.TrimSpace(p), ""))
		if p == "" || reNotAnAlt.MatchString(p) || len(subject(p)) == 0 {
			continue
		}
		out = append(out, option{text: p})
	}
	return out
}

// splitAlternatives cuts "X, Y, or Z" and "X or Y".
func splitAlternatives(s string) []string {
	parts := reOrSplit.Regexp().Split(s, -1)
	if len(parts) == 2 && strings.Contains(s, ", or ") && strings.Count(parts[0], ", ") > 0 && strings.Count(parts[0], ", ") <= 3 {
		return append(strings.Split(parts[0], ", "), parts[1])
	}
	return parts
}

var reCamel = lazyre.New(`([a-z0-9])([A-Z])`)

// normalize splits identifiers into words: "FindOneAndUpdate" is "find
// one and update", "single-role" "single role".
func normalize(s string) string {
	s = reCamel.ReplaceAllString(s, "$1 $2")
	return strings.ToLower(strings.NewReplacer("_", " ", "-", " ", "/", " ", "+", " ", "`", " ", ".", " ").Replace(s))
}
