package offline_test

import (
	"context"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// produceScores answers every produce task with the offline model name
// and scores the answers through the one score path (scoring.Metric).
func produceScores(t *testing.T, name string) (*task.Set, map[string]metric.Result) {
	t.Helper()
	s, _ := suites.Lookup(suites.Produce)
	set, err := s.Build(tasktest.Set(t), transcript.Inputs{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := offline.New(name, set)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]metric.Result{}
	for _, tk := range set.Tasks {
		r, err := m.Complete(context.Background(), model.Request{Model: name, TaskID: tk.ID, Seed: new(int64(20260427))})
		if err != nil {
			t.Fatal(err)
		}
		out[tk.ID], _ = scoring.Metric(tk, tk.Source.Bytes, r.Content, metric.DefaultWeights())
	}
	return set, out
}

// TestProduceOracle: offline/oracle is lossless in both classes of the
// produce suite: its JSON from the projection (P) and its projection of
// the JSON, parsed back (R), are the corpus documents.
func TestProduceOracle(t *testing.T) {
	set, scores := produceScores(t, offline.Oracle)
	if len(set.Tasks) != 40 {
		t.Fatalf("the produce suite has %d tasks, want 40 (P and R of 20 documents)", len(set.Tasks))
	}
	for id, r := range scores {
		if !r.Lossless || r.Drift != 0 {
			t.Errorf("%s: oracle drift %v, lossless %v: %s", id, r.Drift, r.Lossless, r.Reason)
		}
	}
}

// TestProduceNoisy: offline/noisy is not lossless in either class, and
// its scores name what it lost, with the slips of each direction: in P a
// merged span (a span lost), in R a link's predicate or an edge left out
// of the text it writes.
func TestProduceNoisy(t *testing.T) {
	set, scores := produceScores(t, offline.Noisy)
	lost := map[string]map[string]int{task.ClassP: {}, task.ClassR: {}}
	for _, tk := range set.Tasks {
		r := scores[tk.ID]
		if r.Lossless {
			continue
		}
		for _, d := range r.Diagnostics {
			lost[tk.Class][d.Kind]++
		}
	}
	for class, kinds := range lost {
		if kinds[metric.KindNotLossless] == 0 {
			t.Errorf("class %s: offline/noisy is lossless everywhere", class)
		}
		named := 0
		for k, n := range kinds {
			if strings.HasSuffix(k, "_lost") || k == metric.KindMarkAdded {
				named += n
			}
		}
		if named == 0 {
			t.Errorf("class %s: no score names what was lost: %v", class, kinds)
		}
	}
	if lost[task.ClassP][metric.KindSpanLost] == 0 {
		t.Errorf("class P: no merged span among offline/noisy's slips: %v", lost[task.ClassP])
	}
}
