package main

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Set by the linker for releases (see `make release`):
//
//	-X main.version=v1.2.3 -X main.commit=<sha> -X main.date=<RFC 3339>
//
// A binary built otherwise reads them from the build info Go embeds:
// `go install …@v1.2.3` records the module version, a build in a git
// checkout the revision and its time.
var version, commit, date string

// VersionCmd prints the version.
type VersionCmd struct{}

// buildInfo says which cairn this is.
type buildInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Date     string `json:"date,omitempty"`
	Modified bool   `json:"modified,omitempty"` // built from a work tree with uncommitted changes
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

func (c *VersionCmd) Run(g *Globals, env *Env) error {
	b := readBuildInfo()
	if g.JSON {
		return env.JSON(b)
	}
	env.Printf("cairn %s\n", b.Version)
	if b.Commit != "" {
		mod := ""
		if b.Modified {
			mod = " (modified)"
		}
		env.Printf("commit   %s%s\n", b.Commit, mod)
	}
	if b.Date != "" {
		env.Printf("built    %s\n", b.Date)
	}
	env.Printf("go       %s %s\n", b.Go, b.Platform)
	return nil
}

func readBuildInfo() buildInfo {
	b := buildInfo{Version: version, Commit: commit, Date: date, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		fromModule(&b, bi)
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	return b
}

// fromModule fills what the linker flags left empty from Go's build info.
// "modified" describes the revision Go recorded, so it is kept only when
// that revision is the one reported.
func fromModule(b *buildInfo, bi *debug.BuildInfo) {
	vcs := b.Commit == ""
	if b.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		b.Version = strings.TrimSuffix(bi.Main.Version, "+dirty")
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if vcs {
				b.Commit = s.Value
			}
		case "vcs.time":
			if b.Date == "" {
				b.Date = s.Value
			}
		case "vcs.modified":
			b.Modified = vcs && s.Value == "true"
		}
	}
}

// versionString is the version servers report.
func versionString() string { return readBuildInfo().Version }
