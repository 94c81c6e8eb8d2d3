package main

import "runtime/debug"

// version is set by the linker (-X main.version=...) for releases.
var version = ""

// VersionCmd prints the version.
type VersionCmd struct{}

func (c *VersionCmd) Run(g *Globals, env *Env) error {
	v := versionString()
	if g.JSON {
		return env.JSON(map[string]string{"version": v})
	}
	env.Printf("cairn %s\n", v)
	return nil
}

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
