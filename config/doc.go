// Package config reads cairn.yaml, the per-vault settings file. Every field
// has a default, so an empty file is a valid configuration; unknown keys are
// errors that name the file and line, since a typo in a setting should not
// silently fall back to a default.
package config
