package main

import (
	"runtime/debug"
	"testing"
)

func TestFromModule(t *testing.T) {
	tests := []struct {
		name string
		pre  buildInfo // what -ldflags set
		bi   debug.BuildInfo
		want buildInfo
	}{
		{"go install @version", buildInfo{},
			debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}},
			buildInfo{Version: "v1.4.0"}},
		{"go build in a checkout", buildInfo{},
			debug.BuildInfo{Main: debug.Module{Version: "v1.4.1-0.20261120101010-0123456789ab+dirty"}, Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.time", Value: "2026-11-20T10:10:10Z"}, {Key: "vcs.modified", Value: "true"}}},
			buildInfo{Version: "v1.4.1-0.20261120101010-0123456789ab", Commit: "0123456789abcdef", Date: "2026-11-20T10:10:10Z", Modified: true}},
		{"devel without vcs", buildInfo{},
			debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			buildInfo{}},
		{"release flags win", buildInfo{Version: "v2.0.0", Commit: "feedface", Date: "2026-12-01T00:00:00Z"},
			debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "other"}, {Key: "vcs.time", Value: "x"}}},
			buildInfo{Version: "v2.0.0", Commit: "feedface", Date: "2026-12-01T00:00:00Z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.pre
			fromModule(&b, &tt.bi)
			if b != tt.want {
				t.Fatalf("got %+v\nwant %+v", b, tt.want)
			}
		})
	}
}
