package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
)

// parseWhen reads a --since/--until value: a date, a time, or an age such
// as 36h, 7d, 2w, 3mo, 1y (counted back from now).
func parseWhen(s string, now time.Time) (time.Time, error) {
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
	return time.Time{}, fmt.Errorf("%w: %q is not a date (2026-11-01), time, or age (36h, 7d, 2w, 3mo, 1y)", errUsage, s)
}
