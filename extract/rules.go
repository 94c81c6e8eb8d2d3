package extract

import (
	"slices"
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/transcript"
)

// What makes a person's sentence a standing rule rather than an answer.
var (
	reDurable  = lazyre.New(`(?i)\b(always|never|from now on|going forward|in (?:the )?future|every time|whenever|each time|by default|as a rule|no matter what|under no circumstances)\b`)
	reNotRule  = lazyre.New(`(?i)\b(never mind|nevermind|i(?:'ve| have)? never|never (?:seen|heard|used|tried|knew|thought)|have you ever|did you ever|not (?:always|never|every time)|almost (?:always|never)|(?:i am|i'm|it is|it's|this is|that is|is|are|was|were) (?:always|never))\b`)
	rePrefer   = lazyre.New(`(?i)^(?:i|we) (?:(?:really |much |strongly )?prefer|'?d rather|would rather|(?:really )?(?:hate|dislike|don'?t like) (?:it )?when)\b`)
	reStanding = lazyre.New(`(?i)\b(as you go|after each|before moving on|as each .{3,40} (?:is )?(?:done|complete|completed|finished)|once each|for each (?:change|step|task|feature)|when(?:ever)? i (?:ask|say|request|want)\b)`)
	reStop     = lazyre.New(`(?i)^(?:please )?stop \w+ing\b`)
	reDont     = lazyre.New(`(?i)^(?:please )?(?:don'?t|do not|avoid|no more|you (?:must|should) not|must not|mustn'?t|make sure (?:to|you)|ensure (?:that|you)|remember to)\b`)
	reShouting = lazyre.New(`\b(NEVER|ALWAYS|DO NOT|DON'T|MUST)\b`)
	reOneOff   = lazyre.New(`(?i)\b(yet|for now|right now|at the moment|this time|today|tonight|for this (?:task|ticket|pr|one|change|session|question|step)|until (?:i|we|you)|just now|in this (?:pr|task|ticket|turn)|this round|for the moment)\b`)
	reMaybe    = lazyre.New(`(?i)\b(if|maybe|perhaps|might|not sure|i guess|i think|i suppose|could we|should we|can we|would you|do you|whether|what if|how about|what about|probably)\b`)
	reReversal = lazyre.New(`(?i)\b(actually|never mind|nevermind|scratch that|ignore (?:that|what i said)|forget (?:that|what i said)|changed my mind|on second thought|non-?interactively|you can now|it'?s fine to|go ahead and|go back to|revert\w*|undo|put it back|change it back|back to (?:the|how))\b`)
	// Working with the person, not the project: how to ask, answer,
	// check in, pace the work. Such rules follow the person everywhere.
	reInteraction  = lazyre.New(`(?i)\b(questions?|ask(?:ing)? (?:me|first|before)|check(?:ing)? with me|confirm|approv\w*|discuss\w*|explain\w*|concise|brief|verbose|detail(?:ed)?|summar\w+|one (?:\w+ )?at a time|step by step|batch\w*|wait for me|without (?:asking|checking|telling)|let(?:ting)? me know|plain text|multiple[- ]choice|file paths?|paragraphs?|bullet|emoji|tone|apologi\w+|proceed\w*|eager|commits?|commit messages?)\b`)
	reProjectToken = lazyre.New("(`[^`]+`|\\b[\\w./-]+\\.(?:go|py|ts|tsx|js|jsx|rs|ex|exs|rb|java|kt|nix|lua|sh|md|json|ya?ml|toml|sql|proto|css|scss|php|html|heex|conf)\\b|(?:^|\\s)/[\\w.-]+/|\\b[a-z]+_[a-z_]+\\b|\\b[a-z]+[A-Z]\\w+\\b)")
	// reThisProject ties a rule to the project at hand: "commit messages in
	// this repo" is the project's convention, not the person's everywhere.
	reThisProject = lazyre.New(`(?i)\b(?:(?:this|our|the) (?:repo|repository|project|codebase|code base|monorepo|service|app)|in here)\b`)
	// reRemaining scopes an instruction to the work at hand.
	reRemaining = lazyre.New(`(?i)\b(remaining|the rest|these|this batch|all of them|both)\b`)
	reDeictic   = lazyre.New(`(?i)\b(this|that|it|these|those|them|here|there|thing|things|stuff)\b`)
)

// ruleCandidate is a person's sentence read as a standing rule.
type ruleCandidate struct {
	turn       transcript.Turn
	sentence   string
	confidence float64
	why        string
	saidAgain  []string // the other turns that say the same thing
	againAs    []string // and how they say it
}

// extractRules finds the rules and preferences a person stated: durable
// wording ("never", "from now on", "stop doing"), not a one-turn
// instruction, not a question or a maybe, not reversed later in the
// session, not quoted from somewhere else. Repeating it makes it surer.
func extractRules(s *transcript.Session) []Candidate {
	said := s.Said()
	around := contexts(s)
	idx := indexSaid(said)
	takeBacks := reversals(said)
	var found []ruleCandidate
	for i, t := range said {
		for _, sent := range idx.sentences[i] {
			r, ok := readRule(sent.text)
			if !ok {
				continue
			}
			r.turn = t
			if answersQuestion(r.sentence, around[t.Ref].question) {
				// An answer to the agent's question is about that question.
				r.confidence -= 0.15
			}
			if conceded(around[t.Ref].reply) {
				r.confidence += 0.1
				r.why += ", the agent took it as a correction"
			}
			again := idx.restating(i, r.sentence)
			for _, j := range again {
				r.saidAgain = append(r.saidAgain, said[j].Ref)
				if w := idx.restatement(j, subject(r.sentence)); w != "" {
					r.againAs = append(r.againAs, w)
				}
			}
			if n := len(again); n > 0 {
				// Saying it again is the clearest sign of a standing
				// preference the agent keeps missing: once is enough to
				// keep a plain "give me file paths".
				r.confidence += 0.2 + 0.15*float64(min(n, 2)-1)
				r.why += ", repeated"
			}
			if reversedAfter(takeBacks, i, r.sentence) {
				continue
			}
			found = append(found, r)
		}
	}
	var out []Candidate
	groups := groupRules(found)
	sp := newSpeller(s)
	var quoted []string
	for _, g := range groups {
		for _, r := range g {
			quoted = append(append(quoted, r.sentence), r.againAs...)
		}
	}
	sp.prepare(quoted...) // one pass over the agent's prose for all of them
	for _, g := range groups {
		for i := range g {
			g[i].sentence = sp.mend(g[i].sentence)
			for k, w := range g[i].againAs {
				g[i].againAs[k] = sp.mend(w)
			}
		}
		r := g[0]
		kind, scope := schema.KindConstraint, schema.ScopeProject
		switch {
		case reInteraction.MatchString(r.sentence) && !reProjectToken.MatchString(r.sentence) && !reThisProject.MatchString(r.sentence):
			kind, scope = schema.KindPreference, schema.ScopeUser
		case !reProjectToken.MatchString(r.sentence) && !reDurable.MatchString(r.sentence) && !reShouting.MatchString(r.sentence):
			kind = schema.KindPreference
		}
		tags := []string{"rule"}
		if kind == schema.KindPreference {
			tags = []string{"preference"}
		}
		out = append(out, Candidate{Kind: kind, Scope: scope, Title: titleFrom(unshout(r.sentence)), Body: groupBody(g), Tags: tags,
			Turns: groupTurns(g), Rule: r.why, Confidence: min(r.confidence, 0.95), Time: g[len(g)-1].turn.Time})
	}
	return append(out, formObjections(s)...)
}

// saidIndex holds the sentences of what the person said, each with its
// content words, and which turns use each word: reading a session's
// sentences once keeps rule extraction linear in the session's length.
type saidIndex struct {
	sentences [][]saidSentence
	texts     []string
	byWord    map[string][]int // word → turns that use it
	counts    []int32          // scratch for repeats: shared words per turn
	pairs     []map[string]bool
	touched   []int // scratch for restating, reused
	maybe     []int
}

type saidSentence struct {
	text    string
	subject map[string]bool
}

func indexSaid(said []transcript.Turn) *saidIndex {
	idx := &saidIndex{sentences: make([][]saidSentence, len(said)), texts: make([]string, len(said)), byWord: map[string][]int{}}
	for i, t := range said {
		idx.texts[i] = t.Text
		seen := map[string]bool{}
		for _, sent := range sentences(t.Text) {
			subj := subject(statement(sent))
			idx.sentences[i] = append(idx.sentences[i], saidSentence{text: sent, subject: subj})
			for w := range subj {
				if !seen[w] {
					seen[w] = true
					idx.byWord[w] = append(idx.byWord[w], i)
				}
			}
		}
	}
	return idx
}

// maxRestateChecks bounds the turns one sentence is compared with.
const maxRestateChecks = 32

// repeats counts the other turns that state the same thing (up to 3).
func (idx *saidIndex) repeats(at int, sent string) int { return len(idx.restating(at, sent)) }

// restating lists the other turns that state the same thing (up to 3).
// A turn can only match when it shares at least two subject words, so
// turns are counted per word first: common words are in most turns, and a
// set of candidates per sentence made long sessions quadratic in map work.
func (idx *saidIndex) restating(at int, sent string) []int {
	subj := subject(sent)
	if idx.counts == nil {
		idx.counts = make([]int32, len(idx.sentences))
	}
	touched := idx.touched[:0]
	for w := range subj {
		for _, i := range idx.byWord[w] {
			if i == at {
				continue
			}
			if idx.counts[i] == 0 {
				touched = append(touched, i)
			}
			idx.counts[i]++
		}
	}
	maybe := idx.maybe[:0]
	for _, i := range touched {
		if idx.counts[i] >= 2 {
			maybe = append(maybe, i)
		}
		idx.counts[i] = 0
	}
	idx.touched, idx.maybe = touched, maybe
	slices.Sort(maybe) // the first turns that say it, whatever the map order
	var out []int
	for n, i := range maybe {
		// A prompt pasted over and over (a generated or looping session)
		// would be compared with every copy: a few dozen tell enough.
		if len(out) == 3 || n == maxRestateChecks {
			break
		}
		if idx.restates(i, subj) && !resent(idx.bigramsOf(at), idx.bigramsOf(i)) {
			out = append(out, i)
		}
	}
	return out
}

// bigramsOf is a turn's word pairs, worked out once: a long session
// compares the same turns again and again.
func (idx *saidIndex) bigramsOf(turn int) map[string]bool {
	if idx.pairs == nil {
		idx.pairs = make([]map[string]bool, len(idx.texts))
	}
	if idx.pairs[turn] == nil {
		idx.pairs[turn] = bigrams(statement(idx.texts[turn]))
	}
	return idx.pairs[turn]
}

func (idx *saidIndex) restates(turn int, subj map[string]bool) bool {
	return idx.restatement(turn, subj) != ""
}

// restatement is the sentence of a turn that says subj again, "" when
// none does.
func (idx *saidIndex) restatement(turn int, subj map[string]bool) string {
	for _, other := range idx.sentences[turn] {
		if restated(subj, other.subject) {
			return other.text
		}
	}
	return ""
}

// readRule judges one sentence.
func readRule(sent string) (ruleCandidate, bool) {
	quoted := strings.Count(sent, `"`) >= 2 || strings.HasPrefix(strings.TrimSpace(sent), `"`) || strings.HasSuffix(strings.TrimSpace(sent), `"`)
	s := statement(strings.Trim(sent, `"' `))
	if len(s) < 12 || len(s) > 300 || strings.HasSuffix(s, "?") || reNotRule.MatchString(s) || reOneOff.MatchString(s) || reMaybe.MatchString(s) || reReversal.MatchString(s) || reRemaining.MatchString(s) {
		return ruleCandidate{}, false
	}
	r := ruleCandidate{sentence: s, confidence: 0.5}
	var whys []string
	switch {
	case reDurable.MatchString(s) || reStanding.MatchString(s):
		r.confidence += 0.25
		whys = append(whys, "durable wording")
	case rePrefer.MatchString(s):
		r.confidence += 0.25
		whys = append(whys, "stated preference")
	case reStop.MatchString(s):
		r.confidence += 0.25
		whys = append(whys, "stop doing")
	case reDont.MatchString(s):
		r.confidence += 0.1
		whys = append(whys, "imperative")
	case reInteraction.MatchString(s) && len(s) < 80 && reAddressed.MatchString(s):
		// Pasted output ("Changes not staged for commit") and tasks
		// ("Summarize the branch") name neither the person nor the agent.
		whys = append(whys, "how to work together")
	default:
		return ruleCandidate{}, false
	}
	if reShouting.MatchString(sent) || shouted(sent) || reFrustrated.MatchString(sent) {
		r.confidence += 0.15
		whys = append(whys, "emphasis")
	}
	if quoted {
		r.confidence -= 0.4 // quoting a rule from somewhere else
	}
	if len(s) > 200 {
		r.confidence -= 0.2
	}
	if content := len(subject(reDeictic.ReplaceAllString(s, " "))); content < 3 {
		return ruleCandidate{}, false // "don't do that": nothing to keep
	}
	r.why = "person's rule: " + strings.Join(whys, ", ")
	return r, true
}

// answers are the person's turns that answer a question the agent had
// just asked.
func answers(s *transcript.Session) map[string]bool {
	out := map[string]bool{}
	asked := false
	for _, t := range s.Turns {
		switch {
		case t.IsAgent():
			asked = strings.HasSuffix(strings.TrimSpace(t.Text), "?")
		case t.IsPerson():
			if asked {
				out[t.Ref] = true
			}
			asked = false
		}
	}
	return out
}

// takeBack is a said turn that takes something back ("actually", "never
// mind", "revert"), with its content words.
type takeBack struct {
	at      int
	subject map[string]bool
}

func reversals(said []transcript.Turn) []takeBack {
	var out []takeBack
	for i, t := range said {
		if reReversal.MatchString(t.Text) {
			out = append(out, takeBack{i, subject(t.Text)})
		}
	}
	return out
}

// reversedAfter reports a turn after at that takes the rule back.
func reversedAfter(tbs []takeBack, at int, sent string) bool {
	subj := subject(sent)
	for _, tb := range tbs {
		if tb.at > at && containment(subj, tb.subject) >= 0.4 {
			return true
		}
	}
	return false
}
