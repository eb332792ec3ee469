package offline

import (
	"context"
	"testing"

	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/task"
)

func answers(t *testing.T, name string, seed int64) (*task.Set, map[string]string) {
	t.Helper()
	set, probs := task.Load(corpus.FS, instructions.FS)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	m, err := New(name, set)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, tk := range set.Tasks {
		r, err := m.Complete(context.Background(), model.Request{Model: name, TaskID: tk.ID, Seed: new(seed)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Usage.Cost == nil || *r.Usage.Cost != 0 {
			t.Fatal("offline models are free, and say so")
		}
		out[tk.ID] = r.Content
	}
	return set, out
}

// TestReferenceModels: the oracle scores drift 0 with every edit applied and
// every answer grounded; identity applies no edit; noisy drifts somewhere,
// deterministically for a seed.
func TestReferenceModels(t *testing.T) {
	set, oracle := answers(t, Oracle, 1)
	_, identity := answers(t, Identity, 1)
	_, noisy1 := answers(t, Noisy, 1)
	_, noisy1again := answers(t, Noisy, 1)
	_, noisy2 := answers(t, Noisy, 2)
	w := metric.DefaultWeights()
	drifted, differs := 0, 0
	for _, tk := range set.Tasks {
		if noisy1[tk.ID] != noisy1again[tk.ID] {
			t.Fatalf("%s: offline/noisy is not deterministic for a seed", tk.ID)
		}
		if noisy1[tk.ID] != noisy2[tk.ID] {
			differs++
		}
		if tk.Class == task.ClassA {
			a := metric.ScoreAnswer(tk.Source.Doc, oracle[tk.ID])
			if !a.Valid || a.EvidenceResolved != 1 {
				t.Errorf("%s: oracle answer not grounded: %+v", tk.ID, a)
			}
			continue
		}
		o := metric.Score(tk.Source.Doc, tk.Expected, tk.GoldEdit, oracle[tk.ID], w)
		if o.Drift != 0 || !o.EditApplied {
			t.Errorf("%s: oracle drift %v, applied %v", tk.ID, o.Drift, o.EditApplied)
		}
		if i := metric.Score(tk.Source.Doc, tk.Expected, tk.GoldEdit, identity[tk.ID], w); i.EditApplied {
			t.Errorf("%s: identity applied the edit", tk.ID)
		}
		if n := metric.Score(tk.Source.Doc, tk.Expected, tk.GoldEdit, noisy1[tk.ID], w); n.Drift > 0 {
			drifted++
		}
	}
	if drifted == 0 || drifted == 40 {
		t.Errorf("offline/noisy drifted on %d of 40 edits; it should drift on some, not all", drifted)
	}
	if differs == 0 {
		t.Error("seeds 1 and 2 give identical noisy answers")
	}
}

func TestUnknownModel(t *testing.T) {
	if _, err := New("offline/nope", &task.Set{}); err == nil {
		t.Error("New accepted an unknown offline model")
	}
}
