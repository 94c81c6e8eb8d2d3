//go:build !linux && !darwin

package perf

import "os"

// peakRSS is unknown here (Windows keeps it only while the process
// handle is open): reports show 0.
func peakRSS(*os.ProcessState) int64 { return 0 }
