package index

import (
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/cairnmem/cairn/schema"
)

// Field names in the bleve index.
const (
	fURI          = "uri"
	fKind         = "kind"
	fStatus       = "status"
	fTags         = "tags"
	fTitle        = "title"
	fSummary      = "summary"  // the L0 shown on cards, stored only
	fAbstract     = "abstract" // an explicit summary, indexed
	fLabels       = "labels"   // tags as words, indexed
	fBody         = "body"
	fTriggers     = "triggers"
	fCreated      = "created"
	fUpdated      = "updated"
	fImportance   = "importance"
	fConfidence   = "confidence"
	fPinned       = "pinned"
	fLinks        = "links"
	fWiki         = "wiki"
	fSupersedes   = "supersedes"
	fSupersededBy = "superseded_by"
	fGate         = "gate"
	fSession      = "session"
	fCodeCommit   = "code_commit"
	fSimhash      = "minhash" // content fingerprint for near-duplicates
	fReview       = "review"  // "pending": captured, not yet kept by a person
)

// storedFields are returned with every hit, so a card never needs the file.
var storedFields = []string{fURI, fKind, fStatus, fTags, fTitle, fSummary, fTriggers, fCreated, fUpdated,
	fImportance, fConfidence, fPinned, fLinks, fWiki, fSupersedes, fSupersededBy, fGate, fSession, fCodeCommit, fSimhash, fReview}

func newMapping() mapping.IndexMapping {
	text := func(store bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = en.AnalyzerName
		f.Store = store
		f.IncludeTermVectors = false
		f.IncludeInAll = false
		f.DocValues = true
		return f
	}
	// The body keeps its words per memory (doc values) as well: ranking
	// reads them to learn which words go together in this vault.
	body := func() *mapping.FieldMapping {
		f := text(false)
		f.DocValues = true
		return f
	}
	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = true
		return f
	}
	stored := func() *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Index = false
		f.Store = true
		f.IncludeInAll = false
		f.DocValues = true
		return f
	}
	date := func() *mapping.FieldMapping {
		f := bleve.NewDateTimeFieldMapping()
		f.IncludeInAll = false
		f.DocValues = true // listings sort by date: without doc values bleve un-inverts the field
		return f
	}
	num := func() *mapping.FieldMapping {
		f := bleve.NewNumericFieldMapping()
		f.IncludeInAll = false
		f.DocValues = true
		return f
	}
	dm := bleve.NewDocumentStaticMapping()
	for name, fm := range map[string]*mapping.FieldMapping{
		fURI: kw(), fKind: kw(), fStatus: kw(), fTags: kw(), fLinks: kw(), fSupersedes: kw(),
		fSupersededBy: kw(), fGate: kw(), fSession: kw(), fWiki: kw(), fCodeCommit: stored(), fSimhash: stored(), fReview: kw(),
		fTitle: text(true), fSummary: stored(), fAbstract: text(false), fLabels: text(false), fBody: body(), fTriggers: text(true),
		fCreated: date(), fUpdated: date(), fImportance: num(), fConfidence: num(),
		fPinned: bleve.NewBooleanFieldMapping(),
	} {
		dm.AddFieldMappingsAt(name, fm)
	}
	im := bleve.NewIndexMapping()
	im.DefaultMapping = dm
	im.DefaultAnalyzer = en.AnalyzerName
	im.ScoringModel = "bm25"
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false
	return im
}

// Doc is what the index knows about a memory: everything a card, a filter
// or a ranking signal needs, without reading the file.
type Doc struct {
	URI          schema.URI    `json:"uri"`
	Kind         schema.Kind   `json:"kind"`
	Status       schema.Status `json:"status"`
	Title        string        `json:"title"`
	Summary      string        `json:"summary"`
	Tags         []string      `json:"tags,omitempty"`
	Triggers     []string      `json:"triggers,omitempty"`
	Created      time.Time     `json:"created"`
	Updated      time.Time     `json:"updated"`
	Importance   float64       `json:"importance"`
	Confidence   float64       `json:"confidence,omitempty"`
	Pinned       bool          `json:"pinned,omitempty"`
	Links        []string      `json:"links,omitempty"`
	Wiki         []string      `json:"wiki,omitempty"`
	Supersedes   []string      `json:"supersedes,omitempty"`
	SupersededBy string        `json:"superseded_by,omitempty"`
	Gate         string        `json:"gate,omitempty"`
	Session      string        `json:"session,omitempty"`
	CodeCommit   string        `json:"code_commit,omitempty"`
	Fingerprint  string        `json:"-"`
	// Unreviewed marks a captured memory no person has kept yet.
	Unreviewed bool `json:"unreviewed,omitempty"`
}

// bleveDoc turns a memory into the fields bleve indexes.
func bleveDoc(m *schema.Memory) map[string]any {
	links, wiki := m.AllLinks()
	tags := make([]string, len(m.Tags))
	for i, t := range m.Tags {
		tags[i] = strings.ToLower(t)
	}
	d := map[string]any{
		fURI: m.URI.String(), fKind: string(m.Kind), fStatus: string(m.EffectiveStatus()),
		fTitle: m.Title, fSummary: m.L0(), fBody: m.Body, fImportance: m.EffectiveImportance(),
		fPinned: m.Pinned,
	}
	if m.Summary != "" {
		d[fAbstract] = m.Summary
	}
	d[fSimhash] = fingerprint(m.Title + " " + m.Body)
	if len(tags) > 0 {
		d[fLabels] = strings.Join(tags, " ")
	}
	setList := func(k string, v []string) {
		if len(v) > 0 {
			d[k] = v
		}
	}
	setList(fTags, tags)
	setList(fTriggers, m.Triggers)
	setList(fLinks, links)
	setList(fWiki, wiki)
	setList(fSupersedes, m.Supersedes)
	setStr := func(k, v string) {
		if v != "" {
			d[k] = v
		}
	}
	setStr(fSupersededBy, m.SupersededBy)
	setStr(fGate, m.Gate)
	if m.Source != nil {
		setStr(fSession, m.Source.Session)
		setStr(fCodeCommit, m.Source.CodeCommit)
	}
	if m.Confidence != nil {
		d[fConfidence] = *m.Confidence
	}
	if m.NeedsReview() {
		d[fReview] = "pending"
	}
	if !m.Created.IsZero() {
		d[fCreated] = m.Created
	}
	if !m.Updated.IsZero() {
		d[fUpdated] = m.Updated
	} else if !m.Created.IsZero() {
		d[fUpdated] = m.Created
	}
	return d
}

// textField is a full-text field ranked by BM25F: its weight against the
// others and how strongly its length normalizes term frequency.
type textField struct {
	name   string
	weight float64
	b      float64
	text   func(m *schema.Memory) string
}

// textFields are the fields a query's words are matched in. Short, dense
// fields weigh more than the body; a derived summary is not among them, so
// the body's first sentence is not counted twice.
var textFields = [...]textField{
	{fTitle, 2.5, 0.5, func(m *schema.Memory) string { return m.Title }},
	{fAbstract, 1.5, 0.5, func(m *schema.Memory) string { return m.Summary }},
	{fLabels, 1.5, 0.3, func(m *schema.Memory) string { return strings.Join(m.Tags, " ") }},
	{fTriggers, 2.0, 0.3, func(m *schema.Memory) string { return strings.Join(m.Triggers, " ") }},
	{fBody, 1.0, 0.75, func(m *schema.Memory) string { return m.Body }},
}

const numTextFields = len(textFields)

// bodyField is the body's place in textFields.
const bodyField = numTextFields - 1

// kindCodes and statusCodes number kinds and statuses in the manifest;
// code 0 is "unknown".
var (
	kindCodes   = []schema.Kind{"", schema.KindProfile, schema.KindPreference, schema.KindPattern, schema.KindDecision, schema.KindConstraint, schema.KindEvent, schema.KindCase, schema.KindOutcome, schema.KindSession, schema.KindThread, schema.KindReminder}
	statusCodes = []schema.Status{"", schema.StatusActive, schema.StatusOpen, schema.StatusDone, schema.StatusSuperseded, schema.StatusArchived}
)

func code[T comparable](list []T, v T) uint8 {
	for i, x := range list {
		if x == v {
			return uint8(i)
		}
	}
	return 0
}

func metaOf(m *schema.Memory) docMeta {
	up := m.Updated
	if up.IsZero() {
		up = m.Created
	}
	meta := docMeta{kind: code(kindCodes, m.Kind), status: code(statusCodes, m.EffectiveStatus()), pinned: m.Pinned, updated: up.Unix(), created: m.Created.Unix()}
	if m.Created.IsZero() {
		meta.created = meta.updated
	}
	if m.Source != nil && m.Source.Session != "" {
		meta.session = sessionKey(m.Source.Session)
	}
	return meta
}

// fieldLens counts the analyzed tokens of each full-text field.
func fieldLens(m *schema.Memory) [numTextFields]uint32 {
	var out [numTextFields]uint32
	for i, f := range textFields {
		if t := f.text(m); t != "" {
			out[i] = uint32(len(analyzer().Analyze([]byte(t))))
		}
	}
	return out
}

// embedText is what a memory's vector is made from.
func embedText(m *schema.Memory) string {
	var b strings.Builder
	b.WriteString(m.Title)
	b.WriteString("\n")
	if m.Summary != "" {
		b.WriteString(m.Summary)
		b.WriteString("\n")
	}
	if len(m.Tags) > 0 {
		b.WriteString(strings.Join(m.Tags, " "))
		b.WriteString("\n")
	}
	b.WriteString(m.Body)
	return b.String()
}

// docFromFields reads the stored fields of a hit back into a Doc.
func docFromFields(scope schema.Scope, id string, f map[string]any) Doc {
	d := Doc{URI: schema.URI{Scope: scope, Path: id}}
	d.Kind = schema.Kind(fieldString(f[fKind]))
	d.Status = schema.Status(fieldString(f[fStatus]))
	d.Title = fieldString(f[fTitle])
	d.Summary = fieldString(f[fSummary])
	d.Tags = fieldStrings(f[fTags])
	d.Triggers = fieldStrings(f[fTriggers])
	d.Links = fieldStrings(f[fLinks])
	d.Wiki = fieldStrings(f[fWiki])
	d.Supersedes = fieldStrings(f[fSupersedes])
	d.SupersededBy = fieldString(f[fSupersededBy])
	d.Gate = fieldString(f[fGate])
	d.Session = fieldString(f[fSession])
	d.CodeCommit = fieldString(f[fCodeCommit])
	d.Fingerprint = fieldString(f[fSimhash])
	d.Created = fieldTime(f[fCreated])
	d.Updated = fieldTime(f[fUpdated])
	d.Importance, _ = f[fImportance].(float64)
	d.Confidence, _ = f[fConfidence].(float64)
	d.Pinned, _ = f[fPinned].(bool)
	d.Unreviewed = fieldString(f[fReview]) == "pending"
	return d
}

func fieldString(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		if len(t) > 0 {
			s, _ := t[0].(string)
			return s
		}
	}
	return ""
}

func fieldStrings(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		out := make([]string, 0, len(t))
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func fieldTime(v any) time.Time {
	s := fieldString(v)
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}
