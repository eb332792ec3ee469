package projection_test

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/projection"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/testcorpus"
	"bendscript.com/round-trip-harness/metric"
)

// roundTrip renders d, parses the text back and says what differs: the
// lossless check's differences (metric/doc.go), and the computed id.
func roundTrip(t *testing.T, name string, d *bend.Document) string {
	t.Helper()
	text, err := projection.Render(d)
	if err != nil {
		t.Fatalf("%s: render: %v", name, err)
	}
	back, err := projection.Parse(text)
	if err != nil {
		t.Fatalf("%s: parse: %v\n%s", name, err, text)
	}
	r := metric.Score(d, d, nil, string(bend.Marshal(back)), metric.DefaultWeights())
	if !r.Lossless {
		return strings.Join(diagnostics(r), "\n")
	}
	if want, _ := bend.ID(d); back.ID != want {
		return "computed id " + back.ID + ", want " + want
	}
	return ""
}

func diagnostics(r metric.Result) []string {
	var out []string
	for _, d := range r.Diagnostics {
		out = append(out, d.Kind+": "+d.Detail)
	}
	return out
}

// TestCorpusRoundTrip holds §8.1.1's property for the projection on
// every corpus document: projection.Parse(projection.Render(d)) is d up to the lossless check's
// equivalences, with d's own computed id.
func TestCorpusRoundTrip(t *testing.T) {
	for _, doc := range testcorpus.Set(t).Documents {
		if diff := roundTrip(t, doc.Name, doc.Doc); diff != "" {
			t.Errorf("%s does not round-trip:\n%s", doc.Name, diff)
		}
	}
}
