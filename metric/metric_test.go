package metric

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/task"
)

var (
	setOnce sync.Once
	set     *task.Set
	setErr  []task.Problem
)

// tasks returns the corpus's class B and C tasks.
func tasks(t testing.TB) []*task.Task {
	t.Helper()
	setOnce.Do(func() { set, setErr = task.Load(corpus.FS, instructions.FS) })
	if len(setErr) > 0 {
		t.Fatalf("loading the corpus: %v", setErr)
	}
	var out []*task.Task
	for _, tk := range set.Tasks {
		if tk.Class == task.ClassB || tk.Class == task.ClassC {
			out = append(out, tk)
		}
	}
	if len(out) != 40 {
		t.Fatalf("%d class B/C tasks, want 40", len(out))
	}
	return out
}

func score(tk *task.Task, raw string) Result {
	return Score(tk.Source.Doc, tk.Expected, tk.GoldEdit, raw, DefaultWeights())
}

func marshal(t testing.TB, r any) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestExpectedScoresZero(t *testing.T) {
	for _, tk := range tasks(t) {
		r := score(tk, string(bend.Marshal(tk.Expected)))
		if r.Drift != 0 || !r.EditApplied || r.EditCompliance != 1 || !r.Valid || len(r.Diagnostics) != 0 {
			t.Errorf("%s: expected document scored against itself: %s", tk.ID, marshal(t, r))
		}
	}
}

func TestSourceUnchangedIsNotApplied(t *testing.T) {
	for _, tk := range tasks(t) {
		r := score(tk, string(tk.Source.Bytes))
		if r.EditApplied || r.EditCompliance == 1 {
			t.Errorf("%s: the unchanged source counts as applying the edit: %s", tk.ID, marshal(t, r.Ops))
		}
		if r.Drift <= 0 || r.Drift > 0.5 {
			t.Errorf("%s: unchanged source drift %v, want small but positive", tk.ID, r.Drift)
		}
	}
}

func TestGarbageScoresOne(t *testing.T) {
	tk := tasks(t)[0]
	for _, raw := range []string{"", "I cannot help with that.", "{\"blocks\": ", "[1,2,3]", `{"answer": "x"}`, "```json\n{\"a\":1}\n```", `{"blocks": {}}`} {
		r := score(tk, raw)
		if r.Valid || r.Drift != 1 || r.EditApplied || r.EditCompliance != 0 || r.Reason == "" || r.Components != allOnes {
			t.Errorf("%q: %s", raw, marshal(t, r))
		}
	}
}

func TestWeights(t *testing.T) {
	if err := DefaultWeights().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, w := range []Weights{{}, {BlockStructure: -1, SpanCoverage: 2}} {
		if err := w.Validate(); err == nil {
			t.Errorf("%+v: no error", w)
		}
	}
	c := Components{BlockStructure: 1}
	if d := c.Drift(DefaultWeights()); d != 0.25 {
		t.Errorf("drift %v, want 0.25", d)
	}
	if d := c.Drift(Weights{BlockStructure: 2, SpanCoverage: 2}); d != 0.5 {
		t.Errorf("drift %v, want 0.5: weights are relative", d)
	}
	b := marshal(t, DefaultWeights())
	if want := `{"block_structure":0.25,"edge_preservation":0.3,"span_coverage":0.2,"mark_fidelity":0.1,"vocabulary_integrity":0.15}`; b != want {
		t.Errorf("weights JSON %s, want %s", b, want)
	}
}

func TestResultJSONNames(t *testing.T) {
	tk := tasks(t)[0]
	var m map[string]any
	if err := json.Unmarshal([]byte(marshal(t, score(tk, string(tk.Source.Bytes)))), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"drift", "components", "weights", "edit_applied", "edit_compliance", "valid", "extraction", "diagnostics", "metric_version", "ops", "validation_errors"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %v", k, m)
		}
	}
	if !strings.Contains(marshal(t, m["components"]), `"vocabulary_integrity"`) {
		t.Errorf("components: %v", m["components"])
	}
}
