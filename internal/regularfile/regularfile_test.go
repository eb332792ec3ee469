package regularfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// specials returns a symlink to /dev/zero and a FIFO in a new directory.
func specials(t *testing.T) (dir string, names []string) {
	dir = t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Skip(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skip(err)
	}
	return dir, []string{"zero", "fifo"}
}

// TestDeviceSymlinkAndFIFORefused: a config, .env, run.json, transcript,
// report or corpus file that was a symlink to /dev/zero killed every
// command with "fatal error: out of memory" (its Stat size is 0, so the
// size check passed), and a FIFO run.json blocked `harness runs` past
// SIGTERM. Both are refused at once, by Read and by ReadFS.
func TestDeviceSymlinkAndFIFORefused(t *testing.T) {
	dir, names := specials(t)
	// A read that blocks on the FIFO fails the test instead of hanging it.
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
		case <-time.After(2 * time.Minute): // a hang, not a speed: a busy CI core is slow, never this slow
			panic("a read blocked on a special file for 2 minutes")
		}
	}()
	for _, n := range names {
		if _, err := Read(filepath.Join(dir, n), 1<<20); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Read %s: %v, want ErrNotRegular", n, err)
		}
		if _, err := ReadFS(os.DirFS(dir), n, 1<<20); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFS %s: %v, want ErrNotRegular", n, err)
		}
	}
}

// TestOverLimitRefused: a regular file over the limit is refused by its
// size; one within it is read whole.
func TestOverLimitRefused(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("0123456789"), 0o644)
	var tl *TooLargeError
	if _, err := Read(p, 9); !errors.As(err, &tl) || tl.Size != 10 {
		t.Errorf("Read over the limit: %v", err)
	}
	if _, err := ReadFS(os.DirFS(dir), "f", 9); !errors.As(err, &tl) {
		t.Errorf("ReadFS over the limit: %v", err)
	}
	if b, err := Read(p, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("Read at the limit: %q, %v", b, err)
	}
}
