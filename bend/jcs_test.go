package bend

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
)

// TestJCSVectors shows that gowebpki/jcs, the oracle the canonical writer
// is tested against (canonical_test.go), conforms to RFC 8785: every input
// vector canonicalizes to its output byte for byte.
func TestJCSVectors(t *testing.T) {
	inputs, err := filepath.Glob("testdata/jcs/input/*.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no JCS vectors found: %v", err)
	}
	for _, in := range inputs {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata/jcs/output", name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := jcs.Transform(src)
			if err != nil {
				t.Fatalf("Transform: %v", err)
			}
			if string(got) != string(want) {
				t.Errorf("canonical form differs\n got: %s\nwant: %s", got, want)
			}
			// Our own reader and writer must not change the value: going
			// through them first gives the same canonical bytes.
			v, err := ParseValue(src)
			if err != nil {
				t.Fatalf("ParseValue: %v", err)
			}
			again, err := jcs.Transform(MarshalValue(v))
			if err != nil {
				t.Fatalf("Transform after our round trip: %v", err)
			}
			if string(again) != string(want) {
				t.Errorf("after ParseValue/MarshalValue\n got: %s\nwant: %s", again, want)
			}
		})
	}
}

// TestJCSNumbers checks ES6 number serialization (RFC 8785 §3.2.2.3) over
// the 2,000 sample doubles, both directly and through jcs.Transform of the
// number as a JSON document.
func TestJCSNumbers(t *testing.T) {
	f, err := os.Open("testdata/jcs/numbers-sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		hex, want, ok := strings.Cut(sc.Text(), ",")
		if !ok {
			t.Fatalf("line %d: malformed %q", n+1, sc.Text())
		}
		bits, err := strconv.ParseUint(hex, 16, 64)
		if err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		x := math.Float64frombits(bits)
		got, err := jcs.NumberToJSON(x)
		if err != nil || got != want {
			t.Errorf("line %d: NumberToJSON(%s) = %q, %v; want %q", n+1, hex, got, err, want)
		}
		lit := strconv.FormatFloat(x, 'g', -1, 64)
		doc, err := jcs.Transform([]byte("[" + lit + "]"))
		if err != nil || string(doc) != "["+want+"]" {
			t.Errorf("line %d: Transform([%s]) = %s, %v; want [%s]", n+1, lit, doc, err, want)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 2000 {
		t.Errorf("read %d numbers, want 2000", n)
	}
}
