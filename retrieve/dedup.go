package retrieve

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/index"
)

// dupWindow bounds how far down the list duplicates are looked for.
const dupWindow = 50

// collapseDuplicates keeps the most recent of near-identical memories of
// the same kind (content fingerprints a few bits apart) at the best
// position of the group, and notes how many it stands for.
func collapseDuplicates(items []*Item) []*Item {
	n := min(len(items), dupWindow)
	prints := make([]index.Fingerprint, n)
	for i := 0; i < n; i++ {
		prints[i] = index.ParseFingerprint(items[i].Fingerprint)
	}
	dropped := make([]bool, len(items))
	for i := 0; i < n; i++ {
		if dropped[i] {
			continue
		}
		var dups []int
		for j := i + 1; j < n; j++ {
			if !dropped[j] && items[i].Kind == items[j].Kind && prints[i].Near(prints[j]) {
				dups = append(dups, j)
			}
		}
		if len(dups) == 0 {
			continue
		}
		keep := i
		for _, j := range dups {
			if items[j].Updated.After(items[keep].Updated) {
				keep = j
			}
		}
		for _, j := range append([]int{i}, dups...) {
			if j != keep {
				dropped[j] = true
			}
		}
		if keep != i {
			items[keep].Score = items[i].Score
			items[i], items[keep] = items[keep], items[i]
			prints[i], prints[keep] = prints[keep], prints[i]
			dropped[i], dropped[keep] = false, true
		}
		items[i].Note = strings.TrimSpace(items[i].Note + fmt.Sprintf(" (%d older near-duplicate(s) collapsed)", len(dups)))
	}
	out := items[:0]
	for i, it := range items {
		if !dropped[i] {
			out = append(out, it)
		}
	}
	return out
}
