//go:build !unix

package pipeline

// shareRun finds no live run where flock is not available (lockRun takes
// none): one writer per run directory is then the user's to ensure.
func shareRun(string) (release func(), held bool) { return func() {}, false }
