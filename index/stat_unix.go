//go:build (linux || darwin) && !cairn_portable

package index

import "golang.org/x/sys/unix"

// statTimes are the modification and change times of st in nanoseconds
// (x/sys names the fields alike on Linux and macOS).
func statTimes(st *unix.Stat_t) (mtime, ctime int64) {
	return st.Mtim.Nano(), st.Ctim.Nano()
}
