//go:build race

package main

// raceBuild is the [race] condition of the scripts: the test binary, and so
// every cairn a script runs, carries the race detector.
const raceBuild = true
