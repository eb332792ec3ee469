//go:build unix

package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// lockRun takes the run directory's lock (an exclusive flock on run.lock,
// which the kernel releases when the process ends, however it ends), or
// refuses with ErrRunLocked when another process holds it.
func lockRun(dir string) (release func(), err error) {
	release, err = flock(nil, filepath.Join(dir, LockName))
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, &LockedError{RunDir: dir}
	}
	return release, err
}

// lockReports waits, while ctx lasts, for the lock of a run's reports in
// dir (an exclusive flock on dir/.<run-id>.lock): two processes writing
// one run's reports into one folder (two rescores, a rescore beside the
// run) removed each other's temporary files (issue 32: 6 of 12 concurrent
// rescores failed). Writing reports is short, so the second one waits.
func lockReports(ctx context.Context, dir, runID string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return flock(ctx, filepath.Join(dir, "."+runID+".lock"))
}

// flock takes an exclusive flock on path, creating it: at once or
// EWOULDBLOCK when ctx is nil, else polling until ctx ends. The lock file
// is opened without following a symlink and must be a regular file: a
// planted symlink made rescore or resume create an empty file wherever it
// pointed (as root, /etc/nologin; issue 45), and a FIFO would block.
func flock(ctx context.Context, path string) (release func(), err error) {
	f, err := openLock(path)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || ctx == nil {
			f.Close()
			return nil, err
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// openLock opens (creating) the lock file path: never through a symlink,
// never a file that is not regular.
func openLock(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s: the lock file is a symbolic link; a lock is never followed elsewhere: remove it", path)
	}
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s: the lock file is not a regular file (%s): remove it", path, st.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
