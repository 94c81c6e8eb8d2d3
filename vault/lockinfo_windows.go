//go:build windows

package vault

// holderFile is where the writer holding the lock at lockPath says who it
// is: a file beside it, because LockFileEx keeps other handles from
// reading or writing the lock file's locked byte.
func holderFile(lockPath string) string { return lockPath + ".holder" }
