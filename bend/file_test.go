package bend

import (
	"io"
	"strings"
	"testing"
)

// TestReadFileBoundsAPipe: input that is not a regular file (stdin, a
// pipe) has no size to check first; it is refused after MaxSize+1 bytes
// rather than read whole, and the refusal names it and §3.
func TestReadFileBoundsAPipe(t *testing.T) {
	r := &countingReader{n: MaxSize + 1<<20}
	_, err := ReadFile("-", r)
	if err == nil || !strings.Contains(err.Error(), "-: /: over the 16777216-byte limit (§3)") {
		t.Errorf("error %v; want the limit and §3", err)
	}
	if r.read > MaxSize+1 {
		t.Errorf("read %d bytes; want at most MaxSize+1", r.read)
	}
	data, err := ReadFile("-", strings.NewReader("{}"))
	if err != nil || string(data) != "{}" {
		t.Errorf("a small input: %q, %v", data, err)
	}
}

// countingReader yields n bytes of spaces and counts what was read.
type countingReader struct{ n, read int }

func (c *countingReader) Read(p []byte) (int, error) {
	if c.read >= c.n {
		return 0, io.EOF
	}
	k := min(len(p), c.n-c.read)
	for i := range p[:k] {
		p[i] = ' '
	}
	c.read += k
	return k, nil
}
