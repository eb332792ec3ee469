package bend

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
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

// spaces fills countingReader's buffers.
var spaces = [4096]byte(bytes.Repeat([]byte{' '}, 4096))

// countingReader yields n bytes of spaces and counts what was read.
type countingReader struct{ n, read int }

func (c *countingReader) Read(p []byte) (int, error) {
	if c.read >= c.n {
		return 0, io.EOF
	}
	k := min(len(p), c.n-c.read)
	// One copy per buffer rather than a store per byte: under the race
	// detector the loop cost seconds of the quick test run.
	for i := 0; i < k; {
		i += copy(p[i:k], spaces[:])
	}
	c.read += k
	return k, nil
}

// TestCheckFile: CheckFile tells the three outcomes apart, which decide
// validate's and id's exit codes: a valid document, an invalid one (its
// problems, naming the file), and a file that could not be read (an I/O
// error, no problems).
func TestCheckFile(t *testing.T) {
	valid := `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[],"edges":[]}`
	for _, tc := range tabletest.Cases(t, []struct {
		name, input, problem string
		valid, ioErr         bool
		reason               string
	}{
		{"v.bend.json", valid, "", true, false, "a valid document is returned"},
		{"j.bend.json", `{"blocks": [`, "j.bend.json: /blocks/0: not valid JSON", false, false, "no document is a problem, not an I/O failure"},
		{"r.bend.json", strings.Replace(valid, `"blocks":[]`, `"blocks":[{"id":"h","kind":"heading","level":9,"spans":[]}]`, 1), "r.bend.json: /blocks/0/level", false, false, "a broken rule is a problem naming the file"},
		{"", "", "", false, true, "a file that cannot be read is an I/O error"},
	}) {
		var name string
		if tc.ioErr {
			name = t.TempDir() + "/missing.bend.json"
		} else {
			name = t.TempDir() + "/" + tc.name
			if err := os.WriteFile(name, []byte(tc.input), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		d, probs, err := CheckFile(name, nil)
		if (d != nil) != tc.valid || (err != nil) != tc.ioErr || (tc.problem == "") != (len(probs) == 0) ||
			tc.problem != "" && !strings.Contains(probs[0].Error(), tc.problem) {
			t.Errorf("%s: document %v, problems %v, error %v: %s", tc.name, d != nil, probs, err, tc.reason)
		}
	}
}
