package index

import (
	"context"
	"hash/fnv"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/viterin/vek/vek32"
)

const (
	lexicalName = "lexical"
	// lexicalVersion changes whenever the features change, so stored
	// vectors are remade.
	lexicalVersion = 2

	// Feature weights: words carry the meaning; adjacent word pairs add
	// phrase evidence; character 4-grams let "deploy" meet "deployment"
	// and survive typos, and are kept light because they are many.
	weightWord    = 1.0
	weightBigram  = 0.6
	weightNgram   = 0.35
	ngramSize     = 4
	minNgramWord  = 5
	ngramBoundary = "_"
)

// Lexical is the default embedder: signed feature hashing of stemmed words,
// word bigrams and character n-grams into a fixed number of dimensions. It
// needs no model and no network, and it captures shared words and word
// forms, not meaning: it is lexical, never semantic.
//
// Document vectors use sublinear term frequency only; the query side
// multiplies each feature by IDF squared, so a dot product weighs matches
// by rarity while stored vectors never go stale as the corpus grows.
type Lexical struct {
	dims int
}

var _ Embedder = (*Lexical)(nil)

// NewLexical returns a lexical embedder with dims dimensions.
func NewLexical(dims int) *Lexical { return &Lexical{dims: dims} }

// MinCosine is the similarity below which hashing noise is as likely as a
// real match: collisions of unrelated features spread as 1/√dims.
func (l *Lexical) MinCosine() float32 { return float32(4 / math.Sqrt(float64(l.dims))) }

// Info implements Embedder.
func (l *Lexical) Info() EmbedderInfo {
	return EmbedderInfo{Name: lexicalName, Dims: l.dims, Version: lexicalVersion}
}

// EmbedDocs implements Embedder.
func (l *Lexical) EmbedDocs(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(texts); i += workers {
				out[i] = l.vector(features(texts[i]), nil)
			}
		}(w)
	}
	wg.Wait()
	return out, nil
}

// EmbedQuery implements Embedder.
func (l *Lexical) EmbedQuery(_ context.Context, text string, idf IDF) ([]float32, error) {
	return l.vector(features(text), idf), nil
}

type feature struct {
	key   string
	unit  float64   // weight of one occurrence
	count int       // occurrences
	terms [2]string // the analyzed terms whose IDF weighs this feature
}

var (
	analyzerOnce sync.Once
	enAnalyzer   analysis.Analyzer
)

// analyzer is bleve's English analyzer, the one the full-text fields use,
// so query terms look up the same terms the index holds.
func analyzer() analysis.Analyzer {
	analyzerOnce.Do(func() {
		a, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
		if err != nil {
			panic(err)
		}
		enAnalyzer = a
	})
	return enAnalyzer
}

// features extracts weighted features; repeated features add up.
func features(text string) map[string]*feature {
	tokens := analyzer().Analyze([]byte(text))
	fs := make(map[string]*feature, len(tokens)*4)
	add := func(key string, w float64, t1, t2 string) {
		if f, ok := fs[key]; ok {
			f.count++
			f.unit = math.Max(f.unit, w)
			return
		}
		fs[key] = &feature{key: key, unit: w, count: 1, terms: [2]string{t1, t2}}
	}
	for i, tok := range tokens {
		stem := string(tok.Term)
		if len(stem) < 2 {
			continue
		}
		add("w:"+stem, weightWord, stem, "")
		if i+1 < len(tokens) && tokens[i+1].Position == tok.Position+1 {
			next := string(tokens[i+1].Term)
			add("b:"+stem+" "+next, weightBigram, stem, next)
		}
		surface := strings.ToLower(text[tok.Start:tok.End])
		if len(surface) >= minNgramWord {
			g := ngramBoundary + surface + ngramBoundary
			n := len(g) - ngramSize + 1
			for j := 0; j < n; j++ {
				add("c:"+g[j:j+ngramSize], weightNgram/float64(n), stem, "")
			}
		}
	}
	return fs
}

func (l *Lexical) vector(fs map[string]*feature, idf IDF) []float32 {
	v := make([]float32, l.dims)
	for _, f := range fs {
		w := f.unit * (1 + math.Log(float64(f.count))) // sublinear term frequency
		if idf != nil {
			x := idf(f.terms[0])
			if f.terms[1] != "" {
				x = math.Sqrt(x * idf(f.terms[1]))
			}
			w *= x * x
		}
		h := fnv.New64a()
		h.Write([]byte(f.key))
		s := h.Sum64()
		// Two signed buckets per feature: a shared feature still adds its
		// full weight, while a collision with an unrelated one adds half,
		// which keeps the noise from ever spiking like a real match.
		w /= math.Sqrt2
		for k := 0; k < 2; k++ {
			i := (s >> (k * 24)) % uint64(l.dims)
			sign := float32(1)
			if (s>>(63-k))&1 == 1 {
				sign = -1
			}
			v[i] += sign * float32(w)
		}
	}
	normalize(v)
	return v
}

// normalize scales v to unit length; a zero vector (empty text) stays zero
// rather than becoming NaN.
func normalize(v []float32) {
	n := vek32.Norm(v)
	if n == 0 || math.IsNaN(float64(n)) {
		for i := range v {
			v[i] = 0
		}
		return
	}
	vek32.DivNumber_Inplace(v, n)
}
