package bend

import (
	"errors"
	"fmt"
	"io"

	"bendscript.com/round-trip-harness/internal/regularfile"
)

// ReadFile reads a regular file of at most MaxSize bytes
// (internal/regularfile: a device or a FIFO is refused, never read); with a
// stdin, the name "-" reads it instead, a pipe refused after MaxSize+1
// bytes, so that memory stays bounded whatever the input. The refusal is an *Error naming the file
// and §3.
func ReadFile(name string, stdin io.Reader) ([]byte, error) {
	r := stdin
	if name != "-" || stdin == nil {
		f, err := regularfile.Open(name, MaxSize)
		var tl *regularfile.TooLargeError
		if errors.As(err, &tl) {
			return nil, tooLarge(name, tl.Size)
		}
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > MaxSize {
		return nil, tooLarge(name, -1)
	}
	return data, nil
}

func tooLarge(name string, size int64) error {
	msg := fmt.Sprintf("over the %d-byte limit", MaxSize)
	if size >= 0 {
		msg = fmt.Sprintf("file is %d bytes, over the %d-byte limit", size, MaxSize)
	}
	return &Error{File: name, Msg: msg, Section: "3"}
}

// LoadFile reads (ReadFile) and parses a document; errors name the file.
// data is nil when the file could not be read, and set when it was read
// but is no document: the caller tells an I/O failure from an invalid
// document by it.
func LoadFile(name string, stdin io.Reader) (d *Document, data []byte, err error) {
	if data, err = ReadFile(name, stdin); err != nil {
		return nil, nil, err
	}
	if d, err = Parse(data); err != nil {
		if be, ok := err.(*Error); ok {
			c := *be
			c.File = name
			return nil, data, &c
		}
		return nil, data, fmt.Errorf("%s: %w", name, err)
	}
	return d, data, nil
}

// CheckFile loads a document (LoadFile) and checks it against the rules
// (Validate). d is the document when it is valid; problems say why it is
// not (it is no document, or the rules it breaks), each naming the file;
// err is an I/O failure (a file missing, a directory), which is no invalid
// document.
func CheckFile(name string, stdin io.Reader) (d *Document, problems []error, err error) {
	d, data, err := LoadFile(name, stdin)
	switch {
	case err != nil && data == nil:
		return nil, nil, err
	case err != nil:
		return nil, []error{err}, nil
	}
	for _, e := range Validate(d).WithFile(name) {
		problems = append(problems, e)
	}
	if len(problems) > 0 {
		return nil, problems, nil
	}
	return d, nil, nil
}
