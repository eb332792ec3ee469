//go:build unix

package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// shareRun takes a shared lock on the run directory's run.lock, which a
// process running or resuming the run holds exclusively (lockRun): held
// is true, and nothing is locked, when such a process is alive. While the
// shared lock is kept no run or resume of the directory can start. A run
// without run.lock (an archive copied without it), or whose run.lock is
// not a regular file, is not held by anyone: the file is opened without
// following a symlink and without creating it, so a reader never writes
// into an archive.
func shareRun(dir string) (release func(), held bool) {
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return func() {}, false
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return func() {}, false
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		f.Close()
		return func() {}, true
	}
	if err != nil {
		f.Close()
		return func() {}, false
	}
	return func() { f.Close() }, false
}
