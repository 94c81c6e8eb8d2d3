package vault

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// userDirs are where a person's own cairn data lives: the user vault and
// the machine-local state (the registry of project vaults).
type userDirs struct {
	vault, state string
}

// platformDirs follows XDG where its variables are set (absolute paths
// only, as the spec says), else the platform's convention:
//
//	Linux and others  ~/.local/share/cairn          ~/.local/state/cairn
//	macOS             ~/Library/Application Support/cairn/user   .../cairn/state
//	Windows           %LOCALAPPDATA%\cairn\user     %LOCALAPPDATA%\cairn\state
//
// On macOS and Windows vault and state share the application's directory,
// so each has its own folder in it. It is one function of the OS name so
// that every platform's rule is tested on any of them.
func platformDirs(goos string, getenv func(string) string, home string) (userDirs, error) {
	xdg := func(name string) string {
		if v := getenv(name); isAbs(goos, v) {
			return filepath.Join(v, "cairn")
		}
		return ""
	}
	var d userDirs
	var app string // the platform's per-user application directory
	switch goos {
	case "windows":
		base := getenv("LOCALAPPDATA")
		if base == "" {
			if home == "" {
				return d, errors.New("neither %LOCALAPPDATA% nor a home directory is set")
			}
			base = filepath.Join(home, "AppData", "Local")
		}
		app = filepath.Join(base, "cairn")
	case "darwin":
		if home == "" {
			return d, errors.New("no home directory")
		}
		app = filepath.Join(home, "Library", "Application Support", "cairn")
	}
	d.vault, d.state = xdg("XDG_DATA_HOME"), xdg("XDG_STATE_HOME")
	switch {
	case app != "":
		d.vault = cmp.Or(d.vault, filepath.Join(app, "user"))
		d.state = cmp.Or(d.state, filepath.Join(app, "state"))
	case home == "" && (d.vault == "" || d.state == ""):
		return d, errors.New("no home directory")
	default:
		d.vault = cmp.Or(d.vault, filepath.Join(home, ".local", "share", "cairn"))
		d.state = cmp.Or(d.state, filepath.Join(home, ".local", "state", "cairn"))
	}
	return d, nil
}

// isAbs is filepath.IsAbs for the given OS.
func isAbs(goos, p string) bool {
	if goos != "windows" {
		return strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//") {
		return true // UNC
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

func currentDirs() (userDirs, error) {
	home, _ := os.UserHomeDir()
	return platformDirs(runtime.GOOS, os.Getenv, home)
}

// UserDir is the user vault's location: $XDG_DATA_HOME/cairn when set,
// else ~/.local/share/cairn on Linux, ~/Library/Application Support/cairn/user
// on macOS and %LOCALAPPDATA%\cairn\user on Windows.
func UserDir() (string, error) {
	d, err := currentDirs()
	if err != nil {
		return "", fmt.Errorf("user vault: %w", err)
	}
	return d.vault, nil
}
