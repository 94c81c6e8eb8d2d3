// Package atomicfile holds the few file-system calls whose correct form
// differs by platform when a file is replaced while others may read it:
// the rename that replaces it, a read that may meet that rename, and the
// directory sync that makes the rename durable.
//
// On Linux and macOS they are the plain calls. On Windows a rename over a
// file another process has open, and an open of a file being replaced,
// fail with a sharing violation for a moment; the calls here retry such
// errors briefly instead of failing a write or a search. The retry policy
// is shared and tested on every platform; only the classification of
// errors and the rename itself are per platform.
package atomicfile
