package perf

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// Usage is what some files take: the bytes they hold and the blocks
// allocated for them (what du reports: a small file takes a whole block).
type Usage struct {
	Files     int   `json:"files"`
	Bytes     int64 `json:"bytes"`
	Allocated int64 `json:"allocated"`
}

func (u *Usage) add(fi fs.FileInfo) {
	u.Files++
	u.Bytes += fi.Size()
	u.Allocated += allocated(fi)
}

// Disk is what a vault takes, split into its git directory, its cache and
// the memory files themselves.
type Disk struct {
	Total Usage `json:"total"`
	Git   Usage `json:"git"`
	Cache Usage `json:"cache"`
}

func diskUsage(root string) Disk {
	var d Disk
	_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		fi, err := e.Info()
		if err != nil {
			return nil
		}
		d.Total.add(fi)
		rel, _ := filepath.Rel(root, p)
		switch rel = filepath.ToSlash(rel); {
		case strings.HasPrefix(rel, ".git/"):
			d.Git.add(fi)
		case strings.HasPrefix(rel, ".cache/"):
			d.Cache.add(fi)
		}
		return nil
	})
	return d
}
