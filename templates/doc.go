// Package templates holds the embedded text cairn writes: one markdown
// template per memory kind (what `cairn new` opens in an editor), the
// initial cairn.yaml, and the context-pack template.
package templates
