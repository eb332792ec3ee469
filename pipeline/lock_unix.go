//go:build unix

package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// lockRun takes the run directory's lock (an exclusive flock on run.lock,
// which the kernel releases when the process ends, however it ends), or
// refuses with ErrRunLocked when another process holds it.
func lockRun(dir string) (release func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{RunDir: dir}
		}
		return nil, err
	}
	return func() { f.Close() }, nil
}
