//go:build !windows

package vault

// holderFile is where the writer holding the lock at lockPath says who it
// is: the lock file itself, since flock does not stop reads and writes.
func holderFile(lockPath string) string { return lockPath }
