package sensitivity

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// ocBegin and ocEnd mark the operating characteristics in
// docs/interpretations.md.
const (
	ocBegin = "<!-- operating characteristics: harness corpus sensitivity --oc -->\n"
	ocEnd   = "<!-- end of operating characteristics -->"
)

// TestOCTableIsPublished: the operating characteristics in
// docs/interpretations.md are what `harness corpus sensitivity --oc`
// prints (the same seeded simulation): change the verdict's rules, and
// the table must be regenerated.
func TestOCTableIsPublished(t *testing.T) {
	var out bytes.Buffer
	if err := WriteOC(&out, OC(config.Default(), OCDistances, OCTrials, OCSeed), OCTrials, OCSeed); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/interpretations.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), ocBegin)
	published, _, ok2 := strings.Cut(rest, ocEnd)
	if !ok || !ok2 {
		t.Fatalf("docs/interpretations.md holds no operating characteristics between %q and %q", ocBegin, ocEnd)
	}
	if published != out.String() {
		t.Errorf("docs/interpretations.md's operating characteristics are not the command's; it prints:\n%s", out.String())
	}
}

// TestOCMatchesTheBinomial: the simulation measures what it says. A model
// exactly at a P95 limit passes it as often as at most 1 of 20 documents
// is over, each with chance 5% (73.6%); at half the limits, faithfulness
// holds as often as at most 2 of 20 are unfaithful, each with chance 5%
// (92.5%); at the limits, a median holds as often as at most 10 of 20
// are over it, each with chance ½ (58.8%). Each within 3 points.
func TestOCMatchesTheBinomial(t *testing.T) {
	rows := OC(config.Default(), []float64{0.5, 1}, OCTrials, OCSeed)
	for _, c := range tabletest.Cases(t, []struct {
		what      string
		got, want float64
		reason    string
	}{
		{"class B P95 at the limit", rows[1].Holds[2], 0.7358, "P(Bin(20, 0.05) ≤ 1)"},
		{"class C P95 at the limit", rows[1].Holds[4], 0.7358, "the same, at class C's limit"},
		{"faithfulness at half the limits", rows[0].Holds[0], 0.9245, "P(Bin(20, 0.05) ≤ 2)"},
		{"class B median at the limit", rows[1].Holds[1], 0.5881, "P(Bin(20, ½) ≤ 10)"},
	}) {
		if math.Abs(c.got-c.want) > 0.03 {
			t.Errorf("%s holds %.3f of the time, want %.3f", c.what, c.got, c.want)
		}
	}
}
