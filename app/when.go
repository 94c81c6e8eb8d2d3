package app

import (
	"strconv"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
)

// ParseWhen reads a point in time as people and agents write it: a date
// (2026-11-01), a time (RFC 3339), or an age such as 36h, 7d, 2w, 3mo, 1y
// counted back from now. "" is the zero time. Every surface's since and
// until go through it.
func ParseWhen(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := schema.ParseTime(s); err == nil {
		return t, nil
	}
	units := []struct {
		suffix string
		d      time.Duration
	}{{"mo", 30 * 24 * time.Hour}, {"y", 365 * 24 * time.Hour}, {"w", 7 * 24 * time.Hour}, {"d", 24 * time.Hour}, {"h", time.Hour}, {"m", time.Minute}}
	for _, u := range units {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			if v, err := strconv.Atoi(n); err == nil && v >= 0 {
				return now.Add(-time.Duration(v) * u.d), nil
			}
		}
	}
	return time.Time{}, badRequest("%q is not a date (2026-11-01), time, or age (36h, 7d, 2w, 3mo, 1y)", s)
}
