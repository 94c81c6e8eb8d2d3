package main

// mkfifo is a no-op: Windows has no named pipes in the file system, so the
// fuzzer's fifo path is simply a missing file there.
func mkfifo(string) {}
