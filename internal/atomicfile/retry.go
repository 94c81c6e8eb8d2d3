package atomicfile

import (
	"time"
)

// retryFor bounds how long a transient failure is retried. A rename waits
// for readers that hold the file for microseconds (an index pointer, a
// git ref); two seconds covers a virus scanner or an indexer that opened
// the file, as git for Windows and the go command allow.
const retryFor = 2 * time.Second

// retry runs op until it succeeds, fails with an error transient does not
// accept, or the time budget is spent. Waits double from a millisecond up
// to 100 ms, so a short contention costs little.
func retry(op func() error, transient func(error) bool, budget time.Duration) error {
	deadline := time.Now().Add(budget)
	wait := time.Millisecond
	for {
		err := op()
		if err == nil || !transient(err) || time.Now().Add(wait).After(deadline) {
			return err
		}
		time.Sleep(wait)
		wait = min(2*wait, 100*time.Millisecond)
	}
}
