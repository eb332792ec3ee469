// Package regularfile opens and reads files that must be regular files of
// bounded size: every configuration, .env, manifest, transcript, report and
// corpus file the harness reads goes through it.
//
// A size check by os.Stat alone is no bound: a device (a symlink to
// /dev/zero) reports size 0 and never ends, so reading it exhausted memory
// in a second or two, and opening a FIFO blocks until a writer comes, past
// SIGTERM (issue 32). So a file is opened without blocking, checked by
// fstat to be a regular file, and read through a limit whatever it claims
// its size is.
package regularfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (a device, a FIFO, a socket or a directory).
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is the error for a file over its limit.
type TooLargeError struct {
	Name  string
	Size  int64 // the size fstat reported; -1 when the limit was met while reading
	Limit int64
}

// Error prints "name: file is N bytes, over the L-byte limit", or "name:
// over the L-byte limit" when the size was found by reading.
func (e *TooLargeError) Error() string {
	if e.Size >= 0 {
		return fmt.Sprintf("%s: file is %d bytes, over the %d-byte limit", e.Name, e.Size, e.Limit)
	}
	return fmt.Sprintf("%s: over the %d-byte limit", e.Name, e.Limit)
}

// Open opens name for reading when it is a regular file (after following
// symlinks) of at most limit bytes. The open does not block on a FIFO,
// which is then refused.
func Open(name string, limit int64) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = check(name, st, limit)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// check refuses st when it is not a regular file or is over limit.
func check(name string, st fs.FileInfo, limit int64) error {
	switch {
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s: %w (%s)", name, ErrNotRegular, kind(st.Mode()))
	case st.Size() > limit:
		return &TooLargeError{Name: name, Size: st.Size(), Limit: limit}
	}
	return nil
}

// kind names what a non-regular file is, for errors.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// Read reads name (Open) whole. A file that grows past limit while it is
// read is refused too.
func Read(name string, limit int64) ([]byte, error) {
	f, err := Open(name, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return readLimit(f, name, limit, st.Size())
}

// ReadFS is Read for a file of fsys: fs.Stat must say it is a regular
// file within limit before it is opened (os.DirFS follows symlinks and
// would block on a FIFO), and the read is bounded all the same.
func ReadFS(fsys fs.FS, name string, limit int64) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if err := check(name, st, limit); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimit(f, name, limit, st.Size())
}

// readLimit reads r to its end, refusing more than limit bytes. The
// buffer starts at size (what fstat said, at most limit), so that a file
// is read into one allocation rather than by doubling.
func readLimit(r io.Reader, name string, limit, size int64) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(int(min(max(size, 0), limit)) + bytes.MinRead)
	if _, err := b.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(b.Len()) > limit {
		return nil, &TooLargeError{Name: name, Size: -1, Limit: limit}
	}
	return b.Bytes(), nil
}
