package extract

import (
	"strings"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// A placement rule says where each kind of thing belongs and that it
// must not be in two places: "these fields need to be on one tab but
// not both. Standard fields stay on the General tab, while add-on
// devices go on the Devices tab." The next session that adds a field
// needs it; the rule is its title.

var (
	// reOnlyOnePlace is the person saying a thing must not be in two
	// places.
	reOnlyOnePlace = lazyre.New(`(?i)\b(?:but not (?:on |in )?both|not (?:on |in )?both|one or the other|never (?:on |in )?both|only (?:on|in) one (?:of (?:them|the \w+)|place|tab|page|file))\b`)
	// rePlacement is "A should stay on the X, while B should go on the Y".
	rePlacement = lazyre.New(`(?i)^(?:any\s+|all\s+)?(.{3,80}?)\s+` + placeVerb + `\s+(?:the\s+)?(.{3,40}?),?\s+(?:while|whereas|and)\s+(?:any\s+|all\s+)?(.{3,80}?)\s+` + placeVerb + `\s+(?:the\s+)?(.{3,40}?)[.!]?$`)
)

// placeVerb is "should remain in", "go on", "must be placed under".
const placeVerb = `(?:should|must|need to|needs to|have to|has to)\s+(?:remain|stay|go|be placed|be put|be kept|live|belong)\s+(in|on|under)`

// genericPlace are the words of a place that do not name it.
var genericPlace = map[string]bool{"tab": true, "tabs": true, "page": true, "pages": true, "section": true, "sections": true,
	"screen": true, "panel": true, "file": true, "files": true, "folder": true, "dialog": true, "menu": true, "the": true}

// placements are the placement rules in one turn of the person's: a
// sentence saying "not both", next to one saying where each kind goes.
func placements(text string) []directive {
	if !strings.Contains(text, "both") && !strings.Contains(text, "other") && !strings.Contains(text, "only") {
		return nil
	}
	sents := sentences(text)
	for i, s := range sents {
		if !reOnlyOnePlace.MatchString(s) {
			continue
		}
		for _, j := range []int{i, i + 1, i - 1} {
			if j < 0 || j >= len(sents) {
				continue
			}
			if d, ok := placement(sents[j]); ok {
				if j != i {
					d.quote = s + " " + sents[j]
				}
				return []directive{d}
			}
		}
	}
	return nil
}

// placement reads "A should stay on X, while B should go on Y"; the
// session must have written the names of both places.
func placement(sent string) (directive, bool) {
	m := rePlacement.FindStringSubmatch(reParen.ReplaceAllString(statement(sent), ""))
	if m == nil || len(sent) > 400 {
		return directive{}, false
	}
	a, inX, x, b, inY, y := kindOf(m[1]), m[2], m[3], kindOf(m[4]), m[5], m[6]
	var names []string
	for _, w := range append(strings.Fields(x), strings.Fields(y)...) {
		if w = strings.Trim(w, ".,;:'\""); len(w) >= 3 && !genericPlace[strings.ToLower(w)] {
			names = append(names, w)
		}
	}
	if len(names) == 0 || a == "" || b == "" {
		return directive{}, false
	}
	title := a + " " + strings.ToLower(inX) + " the " + x + ", " + b + " " + strings.ToLower(inY) + " the " + y + ", not both"
	return directive{title: title, quote: sent, written: names}, true
}

// kindOf is what a placement is about, short enough for a title: a
// list of kinds ("addon, custom, or unique peripherals") by its noun.
func kindOf(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= 25 {
		return s
	}
	f := strings.Fields(s)
	return f[len(f)-1]
}
