//go:build (linux || darwin) && !cairn_portable

package index

import "golang.org/x/sys/unix"

// statTimes are the modification and change times of st in nanoseconds
// (x/sys names the fields alike on Linux and macOS).
func statTimes(st *unix.Stat_t) (mtime, ctime int64) {
	return st.Mtim.Nano(), st.Ctim.Nano()
}

// regularStat is the stat data of st when it describes a regular file.
func regularStat(st *unix.Stat_t) (fileStat, bool) {
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fileStat{}, false
	}
	mt, ct := statTimes(st)
	return fileStat{size: st.Size, mtime: mt, ctime: ct, ino: st.Ino}, true
}
