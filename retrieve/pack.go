package retrieve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cairnmem/cairn/index"
	"github.com/cairnmem/cairn/schema"
)

// PackRequest asks for a context pack.
type PackRequest struct {
	Task    string // what the agent is about to do; empty at session start
	Session string // the agent session the pack is for
	Budget  int    // tokens; 0 means the configured default
	// SessionStart opens reminders gated on session-start and adds the
	// session primer.
	SessionStart bool
	// Resume says the session continues (resume, compact): the primer is
	// left out, the agent already lived it.
	Resume bool
	// OnlyNew leaves out what this session was already shown (prompts).
	OnlyNew bool
	Safe    bool
	// Record logs the pack as having reached the agent.
	Record bool
	// Sections limits the pack to these sections (by name); empty is all.
	Sections []string
	// Prompt says the task is a user's prompt, for which nothing is
	// better than a weak match: retrieve decides whether the prompt says
	// enough to search for and which matches are relevant enough
	// (prompt.go). An empty pack means inject nothing.
	Prompt bool
}

// Pack is a bounded, ordered selection of memories for an agent.
type Pack struct {
	Key      string         `json:"key"` // hash of vault heads and parameters
	Now      time.Time      `json:"now"`
	Task     string         `json:"task,omitempty"`
	Session  string         `json:"session,omitempty"`
	Budget   int            `json:"budget_tokens"`
	Tokens   int            `json:"tokens"`
	Sections []*PackSection `json:"sections"`
	Heads    []string       `json:"heads"`
	Markdown string         `json:"-"`
	// Prebuilt says the pack was built ahead for a new session and read
	// from the cache (packcache.go).
	Prebuilt bool `json:"-"`
}

// PackSection is one part of a pack.
type PackSection struct {
	Name   string      `json:"name"`
	Title  string      `json:"title"`
	Budget int         `json:"budget_tokens"`
	Tokens int         `json:"tokens"`
	Text   string      `json:"text,omitempty"` // prose sections (the primer)
	Items  []*PackItem `json:"items"`
	Cut    int         `json:"cut,omitempty"` // items left out for lack of budget
}

// PackItem is one memory in a pack.
type PackItem struct {
	URI     string    `json:"uri"`
	Kind    string    `json:"kind"`
	Title   string    `json:"title"`
	Text    string    `json:"text"`
	Tier    int       `json:"tier"` // 0 summary, 1 overview
	Scope   string    `json:"scope"`
	Updated time.Time `json:"updated"`
	Age     string    `json:"age"`
	Score   float64   `json:"score"`
	Reason  string    `json:"reason"`
	Parts   []Part    `json:"parts,omitempty"`
	Flags   []string  `json:"flags,omitempty"`
}

// Section names and their shares of the budget. Unused budget flows to the
// sections after.
var sectionPlan = []struct {
	name, title string
	share       float64
}{
	{"must", "Must know", 0.18}, // first: takes what it needs, up to mustShare
	{"primer", "Last session", 0.10},
	{"you", "Working with you", 0.14},
	{"rules", "Decisions and constraints", 0.20},
	{"task", "Relevant to the task", 0.22},
	{"recent", "Recent activity", 0.08},
	{"threads", "Open threads", 0.08},
}

// Caps that keep any one section from crowding out the rest.
const (
	maxMust        = 8
	maxPerSection  = 12
	overviewChars  = 600 // an L1 overview longer than this is shown as L0
	recentWindow   = 14 * day
	tokenChars     = 4 // characters per estimated token
	actionRequired = "action-required"
)

// tokens estimates tokens the same way everywhere: characters over four.
func tokens(s string) int { return (len(s) + tokenChars - 1) / tokenChars }

// Pack builds a context pack. Same vault, request and clock give the same
// pack, byte for byte.
func (r *Retriever) Pack(ctx context.Context, req PackRequest) (*Pack, error) {
	if req.Budget <= 0 {
		req.Budget = r.cfg.PackBudget
	}
	now := r.Now()
	p := &Pack{Now: now, Task: req.Task, Session: req.Session, Budget: req.Budget}
	for _, ix := range r.ixs {
		h, _ := ix.Vault().Head()
		p.Heads = append(p.Heads, string(ix.Scope())+":"+h)
	}
	if req.Prompt && !worthSearching(req.Task) {
		p.Key = packKey(p, req)
		p.Markdown = renderPack(p)
		return p, nil
	}
	var startKey string
	err := r.views(ctx, func(vs []*index.View) error {
		if cacheable(req) {
			startKey = r.startKey(vs, p.Heads, req, now)
			if c := r.loadStartPack(startKey); c != nil {
				p.Sections, p.Tokens, p.Markdown = c.Pack.Sections, c.Pack.Tokens, c.MD
				p.Prebuilt = true
				return nil
			}
		}
		b := &packBuilder{r: r, vs: vs, req: req, now: now, used: map[string]bool{}, access: r.stats()}
		b.shown = b.access.ShownIn(req.Session)
		return b.build(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	p.Key = packKey(p, req)
	if !p.Prebuilt {
		p.Markdown = renderPack(p)
		if startKey != "" {
			r.storeStartPack(startKey, p)
		}
	}
	if req.Record && req.Session != "" {
		r.recordPack(p)
	}
	return p, nil
}

func packKey(p *Pack, req PackRequest) string {
	h := sha256.New()
	fmt.Fprintf(h, "%v|%s|%s|%d|%v|%v|%v|%v|%v|%s", p.Heads, req.Task, req.Session, req.Budget, req.SessionStart, req.Resume,
		req.OnlyNew, req.Safe, req.Sections, p.Now.UTC().Format(time.RFC3339))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

type packBuilder struct {
	task   []Item // the task's ranking, searched once for every section
	tasked bool
	r      *Retriever
	vs     []*index.View
	req    PackRequest
	now    time.Time
	used   map[string]bool // URIs already in the pack
	shown  map[string]time.Time
	access *index.AccessStats
}

func (b *packBuilder) want(name string) bool {
	if len(b.req.Sections) == 0 {
		return true
	}
	for _, s := range b.req.Sections {
		if s == name {
			return true
		}
	}
	return false
}

// mustShare is the most of a pack obligatory items may take.
const mustShare = 0.5

func (b *packBuilder) build(ctx context.Context, p *Pack) error {
	// Obligatory items are served first, up to half the pack; the other
	// sections share what is left in their proportions.
	rest := p.Budget
	carry := 0
	for i, sp := range sectionPlan {
		var budget int
		if sp.name == "must" {
			budget = int(float64(p.Budget) * mustShare)
		} else {
			budget = int(float64(rest)*sp.share/(1-sectionPlan[0].share)) + carry
		}
		sec := &PackSection{Name: sp.name, Title: sp.title, Budget: budget, Items: []*PackItem{}}
		if b.want(sp.name) {
			cands, text, err := b.gather(ctx, sp.name)
			if err != nil {
				return err
			}
			b.fill(sec, b.reviewed(cands), text)
		}
		if i == 0 {
			rest = p.Budget - sec.Tokens
			sec.Budget = sec.Tokens
		} else {
			carry = max(0, budget-sec.Tokens)
		}
		if len(sec.Items) > 0 || sec.Text != "" {
			p.Sections = append(p.Sections, sec)
			p.Tokens += sec.Tokens
		}
	}
	return nil
}

// gather returns a section's candidates, best first, and its prose.
func (b *packBuilder) gather(ctx context.Context, name string) ([]*Item, string, error) {
	switch name {
	case "must":
		return b.obligatory()
	case "primer":
		if !b.req.SessionStart || b.req.Resume {
			return nil, "", nil
		}
		return b.primer()
	case "you":
		return b.ranked(ctx, []schema.Kind{schema.KindProfile, schema.KindPreference, schema.KindPattern}, "working with you")
	case "rules":
		return b.ranked(ctx, []schema.Kind{schema.KindConstraint, schema.KindDecision}, "active rule")
	case "task":
		items, err := b.taskItems(ctx)
		if err != nil {
			return nil, "", err
		}
		var out []*Item
		for i := range items {
			it := items[i]
			if it.Kind == schema.KindSession || (b.req.Prompt && !relevantToPrompt(it)) {
				continue // sessions have their own section; weak matches are noise
			}
			out = append(out, &it)
		}
		return b.reasons(out, "relevant to the task"), "", nil
	case "recent":
		docs, err := b.list(index.Query{Kinds: []schema.Kind{schema.KindEvent, schema.KindOutcome, schema.KindCase}, Since: b.now.Add(-recentWindow), Depth: maxPerSection * 2})
		if err != nil {
			return nil, "", err
		}
		return b.reasons(b.byRecency(docs), "recent"), "", nil
	case "threads":
		docs, err := b.list(index.Query{Kinds: []schema.Kind{schema.KindThread}, Statuses: []schema.Status{schema.StatusActive}, Depth: maxPerSection * 2})
		if err != nil {
			return nil, "", err
		}
		return b.reasons(b.byRecency(docs), "open thread"), "", nil
	}
	return nil, "", nil
}

// reviewed drops captured memories no person has kept yet when the vault
// says packs wait for review (capture.review: required).
func (b *packBuilder) reviewed(items []*Item) []*Item {
	if !b.r.reviewRequired {
		return items
	}
	return slices.DeleteFunc(items, func(it *Item) bool { return it.Unreviewed })
}

func (b *packBuilder) list(q index.Query) ([]index.Doc, error) {
	var out []index.Doc
	for _, v := range b.vs {
		ds, err := v.List(q)
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	return out, nil
}

func (b *packBuilder) reasons(items []*Item, reason string) []*Item {
	for _, it := range items {
		if it.Note == "" {
			it.Note = reason
		}
	}
	return items
}

// byRecency orders documents newest first, URI breaking ties.
func (b *packBuilder) byRecency(docs []index.Doc) []*Item {
	sort.SliceStable(docs, func(i, j int) bool {
		if !docs[i].Updated.Equal(docs[j].Updated) {
			return docs[i].Updated.After(docs[j].Updated)
		}
		return docs[i].URI.String() < docs[j].URI.String()
	})
	out := make([]*Item, 0, len(docs))
	for _, d := range docs {
		if d.Status.Current() {
			out = append(out, &Item{Doc: d, Scope: d.URI.Scope, Score: 1})
		}
	}
	return out
}

// obligatory are pinned memories, reminders whose gate is open, and open
// threads marked action-required: they come first, outside scoring.
func (b *packBuilder) obligatory() ([]*Item, string, error) {
	pinned, err := b.list(index.Query{Pinned: true, Depth: 50})
	if err != nil {
		return nil, "", err
	}
	reminders, err := b.list(index.Query{Kinds: []schema.Kind{schema.KindReminder}, Statuses: []schema.Status{schema.StatusActive}, Depth: 50})
	if err != nil {
		return nil, "", err
	}
	action, err := b.list(index.Query{Kinds: []schema.Kind{schema.KindThread}, Tags: []string{actionRequired}, Statuses: []schema.Status{schema.StatusActive}, Depth: 50})
	if err != nil {
		return nil, "", err
	}
	var out []*Item
	seen := map[string]bool{}
	add := func(d index.Doc, reason string, rank float64) {
		if seen[d.URI.String()] || !d.Status.Current() {
			return
		}
		seen[d.URI.String()] = true
		out = append(out, &Item{Doc: d, Scope: d.URI.Scope, Score: rank + d.Importance, Note: reason})
	}
	for _, d := range pinned {
		add(d, "pinned", 3)
	}
	for _, d := range reminders {
		g, err := schema.ParseGate(d.Gate)
		if d.Gate == "" {
			g, err = schema.Gate{Kind: schema.GateAlways}, nil
		}
		if err != nil || !g.Open(b.now, b.req.SessionStart) {
			continue
		}
		add(d, "reminder, gate "+string(g.Kind)+" open", 2)
	}
	for _, d := range action {
		add(d, "open thread, action required", 1)
	}
	sortItems(out)
	if len(out) > maxMust {
		out = out[:maxMust]
	}
	return out, "", nil
}

// primer describes the last session in this project.
func (b *packBuilder) primer() ([]*Item, string, error) {
	sessions, err := b.list(index.Query{Kinds: []schema.Kind{schema.KindSession}, Depth: 5})
	if err != nil {
		return nil, "", err
	}
	var last *index.Doc
	for i := range sessions {
		d := sessions[i]
		if d.Session == b.req.Session && b.req.Session != "" {
			continue // this session's own summary so far
		}
		if d.Unreviewed && b.r.reviewRequired {
			continue
		}
		if last == nil || when(d).After(when(*last)) {
			last = &sessions[i]
		}
	}
	if last == nil {
		return nil, "", nil
	}
	b.used[last.URI.String()] = true
	ended := last.Updated
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: ended %s (%s). ", last.Title, ended.UTC().Format("2006-01-02 15:04 UTC"), ago(b.now.Sub(ended)))
	if ov := b.overview(last.URI, 500); ov != "" {
		sb.WriteString(oneLine(ov))
	} else if last.Summary != "" {
		sb.WriteString(last.Summary)
	}
	if last.Session != "" {
		left, err := b.list(index.Query{Kinds: []schema.Kind{schema.KindThread}, Statuses: []schema.Status{schema.StatusActive}, Depth: 20})
		if err != nil {
			return nil, "", err
		}
		var open []string
		for _, t := range left {
			if t.Session == last.Session {
				open = append(open, t.Title)
			}
		}
		if len(open) > 0 {
			fmt.Fprintf(&sb, " Left open: %s.", strings.Join(open, "; "))
		}
	}
	fmt.Fprintf(&sb, " (%s)", last.URI)
	return nil, sb.String(), nil
}

// ranked lists current memories of some kinds, the ones relevant to the
// task first, then by importance, recency and the other signals.
func (b *packBuilder) ranked(ctx context.Context, kinds []schema.Kind, reason string) ([]*Item, string, error) {
	var items []*Item
	seen := map[string]bool{}
	task, err := b.taskItems(ctx)
	if err != nil {
		return nil, "", err
	}
	want := map[schema.Kind]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	for i := range task {
		it := task[i]
		if !want[it.Kind] || !it.Status.Current() || len(items) == maxPerSection {
			continue
		}
		it.Score += 10 // relevant to the task: ahead of the rest
		it.Note = strings.TrimSpace(reason + ", relevant to the task " + it.Note)
		seen[it.URI.String()] = true
		items = append(items, &it)
	}
	// The rest: the most recent of these kinds, ranked by the other signals.
	res, err := b.r.search(ctx, b.vs, Request{Kinds: kinds, Statuses: []schema.Status{schema.StatusActive}, Limit: maxPerSection * 2, Depth: 4 * maxPerSection, Session: b.req.Session, Safe: b.req.Safe, stats: b.access})
	if err != nil {
		return nil, "", err
	}
	for i := range res.Items {
		it := res.Items[i]
		if seen[it.URI.String()] {
			continue
		}
		it.Note = reason
		items = append(items, &it)
	}
	sortItems(items)
	return items, "", nil
}

// taskDepth is how much of the task's ranking the sections draw from.
const taskDepth = 40

// taskItems ranks every memory against the task once; the sections take
// their kinds from the one ranking.
func (b *packBuilder) taskItems(ctx context.Context) ([]Item, error) {
	if b.tasked || strings.TrimSpace(b.req.Task) == "" {
		return b.task, nil
	}
	b.tasked = true
	res, err := b.r.search(ctx, b.vs, Request{Query: b.req.Task, Limit: taskDepth, Depth: taskDepth, Session: b.req.Session, Safe: b.req.Safe, stats: b.access})
	if err != nil {
		return nil, err
	}
	b.task = res.Items
	return b.task, nil
}

// fill adds candidates to a section while they fit its budget, whole.
func (b *packBuilder) fill(sec *PackSection, cands []*Item, text string) {
	if text != "" {
		if t := tokens(text); t <= sec.Budget {
			sec.Text, sec.Tokens = text, t
		} else {
			sec.Text = truncateWords(text, sec.Budget*tokenChars)
			sec.Tokens = tokens(sec.Text)
		}
	}
	count := 0
	stopped := false
	for _, it := range cands {
		key := it.URI.String()
		if b.used[key] {
			continue
		}
		if b.req.OnlyNew {
			if _, seen := b.shown[key]; seen {
				continue
			}
		}
		if sec.Name != "must" && count >= maxPerSection {
			sec.Cut++
			continue
		}
		pi := b.item(it, sec.Name, count)
		cost := tokens(itemLine(pi))
		if sec.Tokens+cost > sec.Budget && pi.Tier == 1 {
			pi.Text, pi.Tier = it.Summary, 0 // the overview does not fit: the summary may
			cost = tokens(itemLine(pi))
		}
		if sec.Tokens+cost > sec.Budget || stopped {
			// Overflow is cut by score and never mid-item: once an item
			// does not fit, it and everything ranked below it stay out.
			stopped = true
			sec.Cut++
			continue
		}
		sec.Items = append(sec.Items, pi)
		sec.Tokens += cost
		b.used[key] = true
		count++
	}
}

// item renders a memory at L1 for the top items of the sections that
// matter most when the overview is short enough, at L0 otherwise.
func (b *packBuilder) item(it *Item, section string, pos int) *PackItem {
	pi := &PackItem{URI: it.URI.String(), Kind: string(it.Kind), Title: it.Title, Text: it.Summary, Scope: string(it.Scope),
		Updated: it.Updated, Age: ago(b.now.Sub(it.Updated)), Score: round(it.Score), Reason: it.Note, Parts: it.Parts}
	if (section == "must" || section == "task" || section == "rules") && pos < 3 {
		if ov := b.overview(it.URI, overviewChars); ov != "" && ov != it.Summary {
			pi.Text, pi.Tier = oneLine(ov), 1
		}
	}
	if pi.Text == it.Title {
		pi.Text = ""
	}
	if it.Pinned {
		pi.Flags = append(pi.Flags, "pinned")
	}
	if it.Status != "" && it.Status != schema.StatusActive {
		pi.Flags = append(pi.Flags, string(it.Status))
	}
	if strings.Contains(it.Note, "replaces") {
		pi.Flags = append(pi.Flags, "supersedes a match")
	}
	if files := b.r.staleSet()[pi.URI]; len(files) > 0 {
		pi.Flags = append(pi.Flags, staleFlag(files))
	}
	return pi
}

// overview reads a memory's L1 from its file, or "" when it is longer
// than limit or cannot be read.
func (b *packBuilder) overview(u schema.URI, limit int) string {
	for _, ix := range b.r.ixs {
		if ix.Scope() != u.Scope {
			continue
		}
		m, err := ix.Vault().Read(u)
		if err != nil {
			return ""
		}
		ov := strings.TrimSpace(m.Overview())
		if ov == "" || len(ov) > limit {
			return ""
		}
		return ov
	}
	return ""
}

func (r *Retriever) recordPack(p *Pack) {
	by := map[schema.Scope][]string{}
	for _, s := range p.Sections {
		for _, it := range s.Items {
			by[schema.Scope(it.Scope)] = append(by[schema.Scope(it.Scope)], it.URI)
		}
	}
	for _, ix := range r.ixs {
		if uris := by[ix.Scope()]; len(uris) > 0 {
			_ = ix.RecordAccess(index.Access{Time: p.Now, Kind: "pack", Session: p.Session, Chars: len(p.Markdown), URIs: uris})
		}
	}
}

func round(x float64) float64 { return float64(int64(x*10000+0.5)) / 10000 }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// truncateWords cuts s to at most n bytes at a word boundary.
func truncateWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut <= 0 {
		cut = n
	}
	return s[:cut] + "…"
}

// ago says how long ago, coarsely, so packs built minutes apart agree.
func ago(d time.Duration) string {
	switch {
	case d > 100*365*day || d < -100*365*day:
		return "" // no time recorded
	case d < 0:
		return "in the future"
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d minutes ago", int(d.Minutes()))
	case d < 2*time.Hour:
		return "an hour ago"
	case d < day:
		return fmt.Sprintf("%d hours ago", int(d.Hours()))
	case d < 2*day:
		return "yesterday"
	case d < 60*day:
		return fmt.Sprintf("%d days ago", int(d/day))
	default:
		return fmt.Sprintf("%d months ago", int(d/(30*day)))
	}
}
