package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// TestRunReconcilesUnknownCosts: an attempt whose stream failed after it
// started (a mid-stream error event carries no usage) has a generation id
// and no cost; at the end of the run GET /generation prices it, and the
// price is written to reconciled.json beside the transcripts (which are
// never rewritten) and said on stdout. `harness runs --reconcile` does the
// same for an archived run (ReconcileRun).
func TestRunReconcilesUnknownCosts(t *testing.T) {
	t.Parallel()
	set := corpusSet(t)
	mark := marker(t, set, set.Task("03-b"))
	cost := 0.125
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if len(req.ResponseFormat) > 0 {
			return modeltest.Text(`{"faithful": true, "quotes": [], "reason": "stated"}`)
		}
		if req.Model == "a/x" && strings.Contains(req.Messages[len(req.Messages)-1].Content, mark) {
			return modeltest.Reply{Content: "partial", ID: "gen-cut", FinishReason: "error", Usage: &modeltest.Usage{Cost: &cost},
				Error: &modeltest.ErrorObject{Code: 502, Message: "Provider disconnected mid-stream", Metadata: map[string]any{"error_type": "provider_unavailable"}}}
		}
		return modeltest.Text(`{"answer": "x", "evidence": []}`)
	})
	models := []string{"a/x", "b/y", "c/z"}
	srv.SetModels(modeltest.Entry("a/x"), modeltest.Entry("b/y"), modeltest.Entry("c/z"))
	o, _ := testOptions(t, models, srv.URL)
	res, err := Run(context.Background(), o)
	if err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}
	out := o.Stdout.(interface{ String() string }).String()
	if !strings.Contains(out, "reconciled: 1 attempt of unknown cost priced by GET /generation: $0.1250") {
		t.Errorf("stdout %q; want the reconciled attempt and its price", out)
	}
	var rec Reconciliation
	b, err := os.ReadFile(filepath.Join(res.RunDir, ReconcileName))
	if err != nil || json.Unmarshal(b, &rec) != nil {
		t.Fatalf("%s: %v", ReconcileName, err)
	}
	if len(rec.Generations) != 1 || rec.Generations[0].ID != "gen-cut" || rec.USD != cost || !strings.Contains(rec.Generations[0].Transcript, "03-b") {
		t.Errorf("reconciled %+v; want gen-cut at $%v", rec, cost)
	}
	// An archived run: every attempt without a cost is asked (the fake
	// reports none for its answers), each priced by the fake's account.
	again, err := ReconcileRun(context.Background(), res.RunDir, Connection{BaseURL: srv.URL, APIKey: "test-key-123456"}, ReconcileRunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(again.Generations); n < 2 || again.Unresolved != 0 || again.USD != cost {
		t.Errorf("reconcile of the archived run: %d generations, %d unresolved, $%v; want every one priced, $%v in all", n, again.Unresolved, again.USD, cost)
	}
	var _ Generations = (*model.OpenRouter)(nil)
}
