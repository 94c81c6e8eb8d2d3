package retrieve

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	now := time.Date(2023, 5, 30, 16, 40, 0, 0, time.UTC)
	d := func(y int, m time.Month, dd int) time.Time { return time.Date(y, m, dd, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		q        string
		from, to time.Time
		order    Order
	}{
		{"What did I do with Rachel on the Wednesday two months ago?", now.AddDate(0, 0, -75), now.AddDate(0, 0, -45), OrderNone},
		{"the milestone I mentioned four weeks ago", now.AddDate(0, 0, -35), now.AddDate(0, 0, -21), OrderNone},
		{"what did we decide yesterday", d(2023, 5, 29), d(2023, 5, 30), OrderNone},
		{"decisions from last week", now.AddDate(0, 0, -14), now.AddDate(0, 0, -5), OrderNone},
		{"what changed last month", d(2023, 4, 1), d(2023, 5, 1), OrderNone},
		{"the bug we fixed in May", d(2023, 5, 1), d(2023, 6, 1), OrderNone},
		{"the outage in November", d(2022, 11, 1), d(2022, 12, 1), OrderNone},
		{"notes in march 2021", d(2021, 3, 1), d(2021, 4, 1), OrderNone},
		{"everything in the past 3 days", now.AddDate(0, 0, -3), now, OrderNone},
		{"what did we decide first", time.Time{}, time.Time{}, OrderEarliest},
		{"what is my current gym schedule", time.Time{}, time.Time{}, OrderLatest},
		{"how do we deploy", time.Time{}, time.Time{}, OrderNone},
	}
	for _, tt := range tests {
		ti := ParseTime(tt.q, now)
		if ti.Order != tt.order {
			t.Errorf("%q: order %v, want %v", tt.q, ti.Order, tt.order)
		}
		if tt.from.IsZero() {
			if ti.Window != nil {
				t.Errorf("%q: unexpected window %+v", tt.q, ti.Window)
			}
			continue
		}
		if ti.Window == nil {
			t.Errorf("%q: no window", tt.q)
			continue
		}
		if diff := ti.Window.From.Sub(tt.from); diff < -day || diff > day {
			t.Errorf("%q: from %v, want about %v", tt.q, ti.Window.From, tt.from)
		}
		if diff := ti.Window.To.Sub(tt.to); diff < -day || diff > day {
			t.Errorf("%q: to %v, want about %v", tt.q, ti.Window.To, tt.to)
		}
	}
}

func TestWindowFit(t *testing.T) {
	w := &Window{From: time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC)}
	inside, near, far := w.Fit(time.Date(2023, 5, 15, 0, 0, 0, 0, time.UTC)), w.Fit(time.Date(2023, 6, 5, 0, 0, 0, 0, time.UTC)), w.Fit(time.Date(2023, 12, 1, 0, 0, 0, 0, time.UTC))
	if inside != 1 || !(near < 1 && near > 0.5) || far > 0.01 {
		t.Fatalf("fit inside %v near %v far %v", inside, near, far)
	}
}
