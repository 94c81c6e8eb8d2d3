// Package bench measures capture on real agent sessions: it runs the
// capture users run (one vault per project, sessions oldest first) and
// scores what was written against labels a person wrote by reading the
// sessions — what mattered (recall) and what must never be written — and
// against checks that need no labels: injected markup in a memory, dates
// outside the session, failures the session never had.
package bench
