package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/sensitivity"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/verdict"
)

// TestGatingVerdictCatchesLosses replays the default gating run (the
// checked-in harness.yaml, three models judged by each other) against the
// fake server, with B/C answers that are the expected documents with one
// canonical loss in each (sensitivity.Losses). Exact answers pass; answers
// that strip every pre-existing meta, or invent one sentence in every
// document they can (38 of 40), passed §8.5 and now fail on the harness's
// own gates, classes B and C, and on those gates alone.
func TestGatingVerdictCatchesLosses(t *testing.T) {
	cases := []struct {
		loss   string
		code   int
		want   []string // the failing metrics, each for every model
		reason string
	}{
		{"none", 0, nil, "exact answers pass every gate, so the gates do not fail on their own"},
		{"meta", 1, []string{"class_b_residual_p95", "class_b_unchanged", "class_c_residual_p95", "class_c_unchanged"}, "stripping every pre-existing meta passed §8.5, and must fail the harness's residual and unchanged gates of classes B and C"},
		{"sentence", 1, []string{"class_b_unchanged", "class_c_unchanged"}, "an invented sentence in every document passed §8.5, and must fail the harness's unchanged gates of classes B and C"},
	}
	// The key is TestMain's; each case runs its own server (by
	// --base-url) and directory.
	t.Parallel()
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.loss, func(t *testing.T) {
			t.Parallel()
			rep := gatingRunWithLoss(t, c.loss, c.code)
			var got []string
			for _, f := range rep.Failures {
				if f.Model == rep.Models[0] {
					got = append(got, f.Metric)
					if f.Source != verdict.SourceHarness {
						t.Errorf("%s: %s fails with source %q, want the harness's own", c.loss, f.Metric, f.Source)
					}
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: %s fails %v, want %v (%s)", c.loss, rep.Models[0], got, c.want, c.reason)
			}
			if len(rep.Failures) != len(c.want)*len(rep.Models) {
				t.Errorf("%s: %d failures, want %d for each of %d models: %+v", c.loss, len(rep.Failures), len(c.want), len(rep.Models), rep.Failures)
			}
		})
	}
}

// gatingRunWithLoss runs the gating run whose B/C answers carry the named
// loss and returns its report; the exit code must be code. The control,
// "none", is the exact gating run that TestGatingRunAgainstRealListing
// reads too (the same answers and votes), made once.
func gatingRunWithLoss(t *testing.T, lossName string, code int) *report.Report {
	if lossName == "none" {
		r := exactGatingRun(t)
		if r.code != code {
			t.Fatalf("%s: exit %d, want %d", lossName, r.code, code)
		}
		return parseReport(t, r.report)
	}
	set := tasktest.Set(t)
	i := slices.IndexFunc(sensitivity.Losses, func(l sensitivity.Loss) bool { return l.Name == lossName })
	loss := sensitivity.Losses[i]
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		id := taskIDOf(req)
		if strings.HasPrefix(req.Messages[0].Content, "You check whether an answer") || strings.HasSuffix(id, "-a") {
			return exactReply(set, req) // the loss is in classes B and C
		}
		tk := set.Task(id)
		out := sensitivity.Apply(loss, tk.Source.Doc, tk.Expected, tk.GoldEdit)
		if out == nil {
			out = tk.Expected
		}
		return modeltest.Text(string(bend.Marshal(out)))
	})
	srv.SetModels(modeltest.DefaultModels()...)
	dir := t.TempDir()
	out, errs, got := runBuilt(t, "run", "--base-url", srv.URL, "--config", "../../harness.yaml", "--out", dir, "--reports", dir, "--run-id", "g", "--progress", "none")
	if got != code {
		t.Fatalf("%s: exit %d, want %d\n%s%s", lossName, got, code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "g.json"))
	if err != nil {
		t.Fatal(err)
	}
	return parseReport(t, b)
}

func parseReport(t *testing.T, b []byte) *report.Report {
	t.Helper()
	var rep report.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}
