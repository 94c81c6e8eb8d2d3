package vault

import "testing"

func TestPlatformDirs(t *testing.T) {
	tests := []struct {
		goos, home string
		env        map[string]string
		vault      string
		state      string
		wantErr    bool
	}{
		{goos: "linux", home: "/home/ann", vault: "/home/ann/.local/share/cairn", state: "/home/ann/.local/state/cairn"},
		{goos: "linux", home: "/home/ann", env: map[string]string{"XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/st"}, vault: "/data/cairn", state: "/st/cairn"},
		{goos: "linux", home: "/home/ann", env: map[string]string{"XDG_DATA_HOME": "rel/data"}, vault: "/home/ann/.local/share/cairn", state: "/home/ann/.local/state/cairn"},
		{goos: "linux", env: map[string]string{"XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/st"}, vault: "/data/cairn", state: "/st/cairn"},
		{goos: "linux", wantErr: true},
		{goos: "freebsd", home: "/usr/home/ann", vault: "/usr/home/ann/.local/share/cairn", state: "/usr/home/ann/.local/state/cairn"},
		{goos: "darwin", home: "/Users/ann", vault: "/Users/ann/Library/Application Support/cairn/user", state: "/Users/ann/Library/Application Support/cairn/state"},
		{goos: "darwin", home: "/Users/ann", env: map[string]string{"XDG_DATA_HOME": "/Users/ann/.local/share"}, vault: "/Users/ann/.local/share/cairn", state: "/Users/ann/Library/Application Support/cairn/state"},
		{goos: "darwin", wantErr: true},
		// Windows paths are spelled with '/' here: filepath joins with the
		// separator of the OS running the test.
		{goos: "windows", home: "C:/Users/ann", env: map[string]string{"LOCALAPPDATA": "C:/Users/ann/AppData/Local"}, vault: "C:/Users/ann/AppData/Local/cairn/user", state: "C:/Users/ann/AppData/Local/cairn/state"},
		{goos: "windows", home: "C:/Users/ann", vault: "C:/Users/ann/AppData/Local/cairn/user", state: "C:/Users/ann/AppData/Local/cairn/state"},
		{goos: "windows", home: "C:/Users/ann", env: map[string]string{"LOCALAPPDATA": "D:/L", "XDG_DATA_HOME": `E:\xdg`}, vault: `E:\xdg/cairn`, state: "D:/L/cairn/state"},
		{goos: "windows", home: "C:/Users/ann", env: map[string]string{"LOCALAPPDATA": "D:/L", "XDG_DATA_HOME": "/unix/style"}, vault: "D:/L/cairn/user", state: "D:/L/cairn/state"},
		{goos: "windows", wantErr: true},
	}
	for _, tt := range tests {
		d, err := platformDirs(tt.goos, func(k string) string { return tt.env[k] }, tt.home)
		if tt.wantErr {
			if err == nil {
				t.Errorf("%s %v: got %+v, want an error", tt.goos, tt.env, d)
			}
			continue
		}
		if err != nil || d.vault != tt.vault || d.state != tt.state {
			t.Errorf("%s home=%q %v:\n got %+v, %v\nwant vault %q state %q", tt.goos, tt.home, tt.env, d, err, tt.vault, tt.state)
		}
	}
}
