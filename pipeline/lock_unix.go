//go:build unix

package pipeline

import (
	"context"
	"errors"
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
// EWOULDBLOCK when ctx is nil, else polling until ctx ends.
func flock(ctx context.Context, path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
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
