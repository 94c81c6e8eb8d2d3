package extract

import "testing"

func TestWithoutTags(t *testing.T) {
	for in, want := range map[string]string{
		"Work on issue ENG-7:\n\n<issue identifier=\"ENG-7\">\n<title>Add a cart endpoint</title>\n<description>Expose the cart.</description>\n</issue>": "Work on issue ENG-7: Add a cart endpoint. Expose the cart",
		"Make `parse` return Vec<String> instead of a slice": "Make `parse` return Vec<String> instead of a slice",
		"Why does <title>Done?</title> show twice":           "Why does Done? show twice",
	} {
		if got := ask(in); got != want {
			t.Errorf("ask(%q) = %q, want %q", in, got, want)
		}
	}
}

// A reply that goes through the agent's numbered findings answers them;
// it is not a new request.
func TestByNumber(t *testing.T) {
	for text, want := range map[string]bool{
		"1 yes we should fix 2 yes fix 3 we should add tests i agree 4 is this bad?":          true,
		"1 yes ok i agree 4 ok that works 5 i mean if stock is 0 then it is out of stock":     true,
		"1. use the regex\n2. structured log field\n3. test separately":                       true,
		"Add 2 retries to the uploader and log each one":                                      false,
		"3 files still fail to build":                                                         false,
		"Fix the 2 failing tests in cart_test.go, then bump the version to 1 2 3 in the docs": false,
	} {
		if got := byNumber(text); got != want {
			t.Errorf("byNumber(%q) = %v, want %v", text, got, want)
		}
	}
}
