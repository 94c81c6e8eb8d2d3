//go:build linux

package index

import "golang.org/x/sys/unix"

func statTimes(st *unix.Stat_t) (mtime, ctime int64) {
	return st.Mtim.Nano(), st.Ctim.Nano()
}
