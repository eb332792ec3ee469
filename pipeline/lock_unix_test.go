//go:build unix

package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestLockFilesCannotBeAimed: a planted reports/.<id>.lock or run.lock
// symlink made rescore or resume create an empty file at any path the
// process could write (issue 45). A lock is opened without following a
// symlink and must be a regular file; the target is never created.
func TestLockFilesCannotBeAimed(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		name, plant, want, reason string
	}{
		{"reports symlink", "symlink", "is a symbolic link", "a symlink at the reports' lock"},
		{"run symlink", "symlink", "is a symbolic link", "a symlink at run.lock"},
		{"reports fifo", "fifo", "not a regular file", "a FIFO would block the open or the lock"},
		{"reports symlink to a dir", "dirlink", "is a symbolic link", "a symlink to a directory"},
	}) {
		dir := t.TempDir()
		target := filepath.Join(dir, "elsewhere", "nologin")
		os.MkdirAll(filepath.Dir(target), 0o755)
		lock := filepath.Join(dir, ".r.lock")
		take := func() error {
			_, err := lockReports(context.Background(), dir, "r")
			return err
		}
		if strings.HasPrefix(c.name, "run") {
			lock = filepath.Join(dir, LockName)
			take = func() error { _, err := lockRun(dir); return err }
		}
		switch c.plant {
		case "symlink":
			os.Symlink(target, lock)
		case "dirlink":
			os.Symlink(filepath.Dir(target), lock)
		case "fifo":
			if err := syscall.Mkfifo(lock, 0o644); err != nil {
				t.Skip("no FIFO here:", err)
			}
		}
		err := take()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q (%s)", c.name, err, c.want, c.reason)
		}
		if _, err := os.Lstat(target); err == nil {
			t.Errorf("%s: the lock created the symlink's target", c.name)
		}
	}
	release, err := lockReports(context.Background(), t.TempDir(), "r")
	if err != nil {
		t.Fatalf("a plain lock: %v", err)
	}
	release()
}
