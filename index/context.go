package index

import (
	"hash/fnv"
	"sort"
)

// A conversation turn is often the answer to the turn before it, and a
// session's memories explain each other: each leading memory is scored in
// the context of its agent session, with a share of its neighbours' scores
// and of its session's score as one text (BM25 over the session's turns).
const (
	contextPool     = 100 // leading memories scored in context
	neighbourWeight = 0.2 // share of the better of the previous and next memory's scores
	sessionWeight   = 0.2 // share of the best score, for the best session
	sessionK1       = 1.2
	sessionB        = 0.75
)

// sessionKey hashes a source session id; 0 means none.
func sessionKey(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	if k := h.Sum32(); k != 0 {
		return k
	}
	return 1
}

// neighbourhood places each memory in its agent session, in order of
// creation (then path).
type neighbourhood struct {
	prev, next []int32   // by manifest file index; -1 for none
	group      []int32   // by manifest file index: its session in groups, -1 for none
	groups     [][]int32 // file indices of each session, in order
	avgLen     float64   // mean body length of a session, in words
	any        bool      // some session holds two memories or more
}

// neighbours builds the manifest's neighbourhood once.
func (m *manifest) neighbours() *neighbourhood {
	m.nbOnce.Do(func() {
		n := &neighbourhood{prev: make([]int32, len(m.files)), next: make([]int32, len(m.files)), group: make([]int32, len(m.files))}
		by := map[uint32]int32{}
		for i := range m.files {
			n.prev[i], n.next[i], n.group[i] = -1, -1, -1
			e := &m.files[i]
			if e.flags&flagInvalid != 0 || e.meta.session == 0 {
				continue
			}
			g, ok := by[e.meta.session]
			if !ok {
				g = int32(len(n.groups))
				by[e.meta.session] = g
				n.groups = append(n.groups, nil)
			}
			n.group[i] = g
			n.groups[g] = append(n.groups[g], int32(i))
		}
		for gi, g := range n.groups {
			if len(g) == 1 {
				// Alone in its session: no context to add.
				n.group[g[0]] = -1
				n.groups[gi] = nil
				continue
			}
			sort.SliceStable(g, func(a, b int) bool { return m.files[g[a]].meta.created < m.files[g[b]].meta.created })
			for j := 1; j < len(g); j++ {
				n.prev[g[j]], n.next[g[j-1]] = g[j-1], g[j]
			}
		}
		groups, total := 0, 0.0
		for _, g := range n.groups {
			if len(g) > 0 {
				groups++
			}
			for _, fi := range g {
				total += float64(m.files[fi].lens[bodyField])
			}
		}
		if groups > 0 {
			n.avgLen = max(1, total/float64(groups))
		}
		n.any = groups > 0
		m.nb = n
	})
	return m.nb
}

// inContext returns the best memories by score, the leading ones scored
// in the context of their session.
func (ix *Index) inContext(sc *bm25Scorer, s *snapshot, scores map[docKey]float64, stats *queryStats, depth int, allowed map[docKey]bool) ([]bm25Hit, error) {
	nb := s.m.neighbours()
	if !nb.any {
		return sc.top(scores, depth, allowed)
	}
	cands, err := sc.top(scores, max(depth, contextPool), allowed)
	if err != nil || len(cands) == 0 {
		return cands, err
	}
	// manifest file index → internal id; noKey marks a file the index does
	// not hold (0 is a real id: the first document indexed).
	const noKey = ^docKey(0)
	keys := map[int32]docKey{}
	fileKey := func(fi int32) (docKey, bool) {
		if k, ok := keys[fi]; ok {
			return k, k != noKey
		}
		id, err := sc.r.InternalID(docIDOf(s.m.files[fi].path))
		if err != nil || id == nil {
			keys[fi] = noKey
			return 0, false
		}
		k := keyOf(id)
		keys[fi] = k
		return k, true
	}
	scoreOf := func(fi int32) float64 {
		if fi < 0 {
			return 0
		}
		if k, ok := fileKey(fi); ok {
			return scores[k]
		}
		return 0
	}
	lead := cands[:min(len(cands), contextPool)]
	files := make([]int32, len(lead))
	best := lead[0].score
	sessions := map[int32]float64{}
	var bestSession float64
	for i, h := range lead {
		files[i] = -1
		fi, ok := s.m.indexOf(h.id + ".md")
		if !ok || nb.group[fi] < 0 {
			continue
		}
		files[i] = int32(fi)
		keys[int32(fi)] = h.key
		g := nb.group[fi]
		if _, done := sessions[g]; !done {
			sessions[g] = stats.sessionScore(nb, g, s.m, fileKey)
			bestSession = max(bestSession, sessions[g])
		}
	}
	for i := range lead {
		fi := files[i]
		if fi < 0 {
			continue
		}
		lead[i].score += neighbourWeight * max(scoreOf(nb.prev[fi]), scoreOf(nb.next[fi]))
		if bestSession > 0 {
			lead[i].score += sessionWeight * best * sessions[nb.group[fi]] / bestSession
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].key < cands[j].key
	})
	if len(cands) > depth {
		cands = cands[:depth]
	}
	return cands, nil
}
