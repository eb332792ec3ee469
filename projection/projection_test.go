package projection_test

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/projection"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/projection/projectiontest"
	"bendscript.com/round-trip-harness/task/tasktest"
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
	for _, doc := range tasktest.Set(t).Documents {
		if diff := roundTrip(t, doc.Name, doc.Doc); diff != "" {
			t.Errorf("%s does not round-trip:\n%s", doc.Name, diff)
		}
	}
}

// TestParseNestingEdge pins the parser at MaxNesting: an innermost empty
// item or quote whose blocks would sit one level too deep used to index
// an empty line list (a panic that crashed a paid run's score phase).
func TestParseNestingEdge(t *testing.T) {
	tests := []struct {
		name, text, wantErr, reason string
	}{
		{"quotes-64", projectiontest.Quotes(64), "", "the innermost quote's (empty) blocks sit at depth 64: allowed"},
		{"quotes-65", projectiontest.Quotes(65), "blocks nest more than 64 deep", "the innermost quote at depth 64, empty: refused, no panic"},
		{"list-64", projectiontest.List(64), "", "the innermost item's (empty) blocks sit at depth 64: allowed"},
		{"list-65", projectiontest.List(65), "blocks nest more than 64 deep", "lists 65 deep with an empty innermost item: refused, no panic"},
		{"list-66", projectiontest.List(66), "blocks nest more than 64 deep", "deeper still: the same error"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		_, err := projection.Parse(tt.text)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
		}
	}
}
