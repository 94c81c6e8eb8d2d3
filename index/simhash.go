package index

import (
	"encoding/binary"
	"encoding/hex"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// minhashSize is the number of minimum hashes in a fingerprint: the
// Jaccard estimate's error is about 1/sqrt(32) ≈ 0.18 at worst, 0.07 near
// the duplicate threshold.
const minhashSize = 32

// dupJaccard is the estimated overlap of word pairs above which two
// memories say the same thing.
const dupJaccard = 0.8

// fingerprint is a MinHash signature of a text's word pairs, so that two
// texts' overlap can be estimated from their signatures alone, however
// short the texts.
func fingerprint(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return ""
	}
	var mins [minhashSize]uint32
	for i := range mins {
		mins[i] = math.MaxUint32
	}
	add := func(s string) {
		h := fnv.New64a()
		h.Write([]byte(s))
		v := h.Sum64()
		a, b := uint32(v), uint32(v>>32)
		for i := range mins {
			// Kirsch–Mitzenmacher: hash i is a + i·b.
			if x := a + uint32(i)*b; x < mins[i] {
				mins[i] = x
			}
		}
	}
	if len(words) == 1 {
		add(words[0])
	}
	for i := 0; i+1 < len(words); i++ {
		add(words[i] + " " + words[i+1])
	}
	buf := make([]byte, 4*minhashSize)
	for i, m := range mins {
		binary.BigEndian.PutUint32(buf[4*i:], m)
	}
	return hex.EncodeToString(buf)
}

// Fingerprint is a decoded MinHash signature; the zero value matches
// nothing.
type Fingerprint []uint32

// ParseFingerprint decodes a fingerprint as stored on Docs.
func ParseFingerprint(s string) Fingerprint {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 4*minhashSize {
		return nil
	}
	out := make(Fingerprint, minhashSize)
	for i := range out {
		out[i] = binary.BigEndian.Uint32(b[4*i:])
	}
	return out
}

// Near reports whether two texts' word pairs overlap by at least
// dupJaccard, as estimated from their signatures.
func (a Fingerprint) Near(b Fingerprint) bool {
	if len(a) != minhashSize || len(b) != minhashSize {
		return false
	}
	same := 0
	for i := range a {
		if a[i] == b[i] {
			same++
		}
	}
	return float64(same)/minhashSize >= dupJaccard
}
