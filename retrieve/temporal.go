package retrieve

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cairnmem/cairn/internal/lazyre"
)

// Window is the time a query refers to, read from its words: memories
// from inside it are preferred, more the closer they are.
type Window struct {
	From   time.Time `json:"from"`
	To     time.Time `json:"to"`
	Phrase string    `json:"phrase"` // the words that set it
}

// Order is a query's preference for early or late memories.
type Order int

// Orders.
const (
	OrderNone Order = iota
	OrderEarliest
	OrderLatest
)

// TimeIntent is what a query says about time.
type TimeIntent struct {
	Window *Window
	Order  Order
	// Topic is the query without the words that set the window: once
	// "two months ago" is a time range, "month" and "ago" are not topics.
	Topic string
}

const day = 24 * time.Hour

var numberWords = map[string]float64{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple": 2, "a couple of": 2, "few": 3, "a few": 3, "several": 4,
}

var units = map[string]time.Duration{
	"day": day, "days": day, "week": 7 * day, "weeks": 7 * day, "month": 30 * day, "months": 30 * day,
	"year": 365 * day, "years": 365 * day, "hour": time.Hour, "hours": time.Hour,
}

var months = map[string]time.Month{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
	"september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

var (
	reAgo      = lazyre.New(`\b(\d+|a couple of|a few|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple|few|several)\s+(hours?|days?|weeks?|months?|years?)\s+ago\b`)
	rePast     = lazyre.New(`\b(?:past|last|previous)\s+(\d+|two|three|four|five|six|seven|eight|nine|ten|couple of|few)\s+(days?|weeks?|months?)\b`)
	reLast     = lazyre.New(`\b(last|this|past)\s+(week|month|year|weekend)\b`)
	reDay      = lazyre.New(`\b(yesterday|today|tonight|this morning|last night|the day before yesterday)\b`)
	reInMonth  = lazyre.New(`\b(?:in|during|since|back in|early|late|mid)\s+(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b(?:\s+(\d{4}))?`)
	reYear     = lazyre.New(`\b(?:in|during|since)\s+((?:19|20)\d\d)\b`)
	reRecent   = lazyre.New(`\b(recently|lately|these days|the other day)\b`)
	reEarliest = lazyre.New(`\b(first|earliest|initially|originally|at first|to begin with|the oldest)\b`)
	reLatest   = lazyre.New(`\b(latest|most recent(?:ly)?|last time|currently|current|now|newest|these days|still)\b`)
)

func count(s string) float64 {
	if n, err := strconv.Atoi(s); err == nil {
		return float64(n)
	}
	if n, ok := numberWords[s]; ok {
		return n
	}
	return 1
}

// ParseTime reads time expressions in a query, relative to now.
func ParseTime(query string, now time.Time) TimeIntent {
	q := strings.ToLower(query)
	ti := TimeIntent{Window: window(q, now), Topic: query}
	if ti.Window != nil {
		if i := strings.Index(q, ti.Window.Phrase); i >= 0 {
			ti.Topic = strings.TrimSpace(query[:i] + " " + query[i+len(ti.Window.Phrase):])
		}
	}
	switch {
	case reEarliest.MatchString(q):
		ti.Order = OrderEarliest
	case reLatest.MatchString(q):
		ti.Order = OrderLatest
	}
	return ti
}

// window is the time a lower-cased query names, by the first kind of
// phrase found in this order: ago, past, day, last, in month, year,
// recent; nil when it names none.
func window(q string, now time.Time) *Window {
	for _, f := range []func(string, time.Time) *Window{agoWindow, pastWindow, dayWindow, lastWindow, monthWindow, yearWindow, recentlyWindow} {
		if w := f(q, now); w != nil {
			return w
		}
	}
	return nil
}

func agoWindow(q string, now time.Time) *Window {
	m := reAgo.FindStringSubmatch(q)
	if m == nil {
		return nil
	}
	span := time.Duration(count(m[1]) * float64(units[m[2]]))
	// "two months ago" is rarely exact: allow a quarter either way, and at
	// least a day.
	slack := time.Duration(math.Max(float64(span)/4, float64(day)))
	center := now.Add(-span)
	return &Window{From: center.Add(-slack), To: center.Add(slack), Phrase: m[0]}
}

func pastWindow(q string, now time.Time) *Window {
	m := rePast.FindStringSubmatch(q)
	if m == nil {
		return nil
	}
	span := time.Duration(count(strings.TrimSuffix(m[1], " of")) * float64(units[m[2]]))
	return &Window{From: now.Add(-span), To: now, Phrase: m[0]}
}

func dayWindow(q string, now time.Time) *Window {
	m := reDay.FindStringSubmatch(q)
	if m == nil {
		return nil
	}
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	switch m[1] {
	case "yesterday", "last night":
		return &Window{From: today.Add(-day), To: today, Phrase: m[0]}
	case "the day before yesterday":
		return &Window{From: today.Add(-2 * day), To: today.Add(-day), Phrase: m[0]}
	}
	return &Window{From: today, To: now, Phrase: m[0]}
}

// lastWindow reads "last week", "this month", "last year" and the like.
func lastWindow(q string, now time.Time) *Window {
	m := reLast.FindStringSubmatch(q)
	if m == nil {
		return nil
	}
	w := func(from, to time.Time) *Window { return &Window{From: from, To: to, Phrase: m[0]} }
	jan1 := func(y int) time.Time { return time.Date(y, 1, 1, 0, 0, 0, 0, now.Location()) }
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, now.Location())
	this := m[1] == "this"
	switch {
	case m[2] == "weekend" && !this:
		return w(now.Add(-9*day), now.Add(-day))
	case m[2] == "weekend":
		return nil // "this weekend" is mostly about plans ahead: no window
	case m[2] == "week" && this:
		return w(now.Add(-7*day), now)
	case m[2] == "week":
		return w(now.Add(-14*day), now.Add(-5*day))
	case m[2] == "month" && this:
		return w(first, now)
	case m[2] == "month":
		return w(first.AddDate(0, -1, 0), first)
	case m[2] == "year" && this:
		return w(jan1(now.Year()), now)
	}
	return w(jan1(now.Year()-1), jan1(now.Year()))
}

func monthWindow(q string, now time.Time) *Window {
	m := reInMonth.FindStringSubmatch(q)
	if m == nil {
		return nil
	}
	mon := months[m[1]]
	year := now.Year()
	if m[2] != "" {
		year, _ = strconv.Atoi(m[2])
	} else if mon > now.Month() {
		year-- // "in May" said in March means last May
	}
	from := time.Date(year, mon, 1, 0, 0, 0, 0, now.Location())
	return &Window{From: from, To: from.AddDate(0, 1, 0), Phrase: m[0]}
}

func yearWindow(q string, now time.Time) *Window {
	m := reYear.FindStringSubmatch(q)
	if m == nil {
		return nil
	}
	y, _ := strconv.Atoi(m[1])
	return &Window{From: time.Date(y, 1, 1, 0, 0, 0, 0, now.Location()), To: time.Date(y+1, 1, 1, 0, 0, 0, 0, now.Location()), Phrase: m[0]}
}

func recentlyWindow(q string, now time.Time) *Window {
	if m := reRecent.FindStringSubmatch(q); m != nil {
		return &Window{From: now.Add(-21 * day), To: now, Phrase: m[0]}
	}
	return nil
}

// Fit is how well a time matches the window: 1 inside, falling off
// smoothly with the distance outside, measured in window widths.
func (w *Window) Fit(t time.Time) float64 {
	if w == nil || t.IsZero() {
		return 0
	}
	if !t.Before(w.From) && !t.After(w.To) {
		return 1
	}
	width := w.To.Sub(w.From)
	if width < day {
		width = day
	}
	var dist time.Duration
	if t.Before(w.From) {
		dist = w.From.Sub(t)
	} else {
		dist = t.Sub(w.To)
	}
	x := float64(dist) / float64(width)
	return math.Exp(-x * x * 8) // a third of a width outside: under half
}
