package delegate_test

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/suites/delegate"
	"bendscript.com/round-trip-harness/suites/ladder"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// pooled is the embedded corpus with its pools loaded.
func pooled(t *testing.T) *task.Set {
	t.Helper()
	c := *tasktest.Set(t)
	if probs := task.WithPool(&c, instructions.FS); len(probs) > 0 {
		t.Fatalf("loading the pools: %v", probs)
	}
	return &c
}

// TestOrderCoversThePoolEvenly: over any number of round trips each pair
// of a pool is drawn ⌊R/P⌋ or ⌈R/P⌉ times, and every pass of P round trips
// uses each pair once.
func TestOrderCoversThePoolEvenly(t *testing.T) {
	set := pooled(t)
	pool := set.PoolOf(set.Documents[0].Name)
	p := len(pool)
	tests := []struct {
		n      int
		reason string
	}{
		{1, "one round trip: one pair"},
		{p - 1, "fewer round trips than pairs: none twice"},
		{p, "one pass: every pair once"},
		{delegate.DefaultRoundTrips, "the default"},
		{2*p + 3, "two passes and a part"},
		{delegate.MaxRoundTrips, "the longest chain"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		for _, seed := range []int64{0, 1, 20260427} {
			order := delegate.Order(pool, tt.n, seed, set.Documents[0].Name)
			if len(order) != tt.n {
				t.Fatalf("%d round trips drew %d (%s)", tt.n, len(order), tt.reason)
			}
			count := map[string]int{}
			for i, x := range order {
				if i > 0 && order[i-1] == x {
					t.Errorf("seed %d: %s drawn twice in a row at %d (%s)", seed, x.ID, i+1, tt.reason)
				}
				count[x.ID]++
				if i%p == p-1 { // a pass ends: each pair used (i+1)/p times
					for _, q := range pool {
						if count[q.ID] != (i+1)/p {
							t.Errorf("seed %d, %d round trips: after %d, %s drawn %d times, want %d (%s)", seed, tt.n, i+1, q.ID, count[q.ID], (i+1)/p, tt.reason)
						}
					}
				}
			}
			lo, hi := tt.n/p, (tt.n+p-1)/p
			for _, q := range pool {
				if c := count[q.ID]; c < lo || c > hi {
					t.Errorf("seed %d, %d round trips: %s drawn %d times, want %d to %d (%s)", seed, tt.n, q.ID, c, lo, hi, tt.reason)
				}
			}
		}
	}
}

// TestOrderIsSeeded: the same seed and document give the same order; another
// seed, or another document's shuffle, gives another.
func TestOrderIsSeeded(t *testing.T) {
	set := pooled(t)
	doc := set.Documents[0].Name
	pool := set.PoolOf(doc)
	ids := func(seed int64, name string) string {
		var out []string
		for _, p := range delegate.Order(pool, delegate.DefaultRoundTrips, seed, name) {
			out = append(out, p.ID)
		}
		return strings.Join(out, " ")
	}
	a := ids(20260427, doc)
	if b := ids(20260427, doc); a != b {
		t.Errorf("the same seed drew %s, then %s", a, b)
	}
	if b := ids(20260428, doc); a == b {
		t.Errorf("seeds 20260427 and 20260428 drew the same order %s", a)
	}
	if b := ids(20260427, "another"); a == b {
		t.Errorf("two documents drew the same order %s", a)
	}
	// The order is fixed by its inputs alone (SHA-256, no math/rand): a
	// change of the shuffle shows here.
	if want := "01-p06 01-p07 01-p05 01-p02 01-p08 01-p01 01-p04 01-p03 01-p04 01-p03"; a != want {
		t.Errorf("seed 20260427 drew %s, want %s", a, want)
	}
}

// TestBuildChains: every document with a pool has a chain of 2R steps,
// whose odd steps are forward edits from the original and whose even steps
// expect the original byte for byte; the order is recorded per chain.
func TestBuildChains(t *testing.T) {
	set := pooled(t)
	const r = 4
	out, err := delegate.Build(set, r, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Documents) != len(set.Documents) || len(out.Skipped) != 0 {
		t.Fatalf("%d chains of %d documents, skipped %v", len(out.Documents), len(set.Documents), out.Skipped)
	}
	if len(out.Tasks) != 2*r*len(set.Documents) || len(out.Order) != len(set.Documents) {
		t.Fatalf("%d tasks, %d order lines", len(out.Tasks), len(out.Order))
	}
	for _, d := range out.Documents {
		nn := d.Name[:2]
		for s := 1; s <= 2*r; s++ {
			st := out.Task(delegate.TaskID(nn, s))
			if st == nil || st.Step != s || st.Chain != nn {
				t.Fatalf("%s: step %d is %+v", nn, s, st)
			}
			original := bytes.Equal(bend.Marshal(st.Expected), bend.Marshal(d.Doc))
			if original != delegate.RoundTrip(s) {
				t.Errorf("%s step %d: expects the original %v, want %v", nn, s, original, delegate.RoundTrip(s))
			}
			if s%2 == 1 && st.Source != d {
				t.Errorf("%s step %d: a forward edit's source is not the original", nn, s)
			}
		}
	}
	if !strings.HasPrefix(out.Order[0], "01: 01-p") {
		t.Errorf("order line %q", out.Order[0])
	}
	// The set's hash covers the order: another seed, another hash.
	other, err := delegate.Build(set, r, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(other.Order, out.Order) || other.Hash() == out.Hash() {
		t.Errorf("seeds 7 and 8: the same order or hash")
	}
}

// TestBuildRefuses: a round-trip count out of bounds, and a recorded order
// the pools no longer draw, are errors with no set.
func TestBuildRefuses(t *testing.T) {
	set := pooled(t)
	good, err := delegate.Build(set, 2, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	changed := slices.Clone(good.Order)
	changed[3] = "04: 04-p01 04-p01"
	tests := []struct {
		n        int
		recorded []string
		want     string
		reason   string
	}{
		{0, nil, "1 to 50 round trips", "no round trip asks nothing"},
		{delegate.MaxRoundTrips + 1, nil, "1 to 50 round trips", "past the bound: three-digit ids"},
		{2, changed, "differs from the run's recorded order", "a resume of a run whose pool changed"},
		{2, good.Order, "", "the recorded order itself"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		got, err := delegate.Build(set, tt.n, 1, tt.recorded)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v (%s)", err, tt.reason)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || got != nil):
			t.Errorf("got %v, want an error with %q (%s)", err, tt.want, tt.reason)
		}
	}
}

// TestBuildLoadsThePool: a corpus loaded without its pools (task.Load)
// draws them from its task directory.
func TestBuildLoadsThePool(t *testing.T) {
	c := *tasktest.Set(t)
	if c.Pairs != nil || c.PoolFS == nil {
		t.Fatalf("Load: pairs %d, pool FS %v", len(c.Pairs), c.PoolFS)
	}
	out, err := delegate.Build(&c, 1, 1, nil)
	if err != nil || len(out.Documents) != len(c.Documents) {
		t.Fatalf("%v, %d chains", err, len(out.Documents))
	}
	c.PoolFS = nil
	out, err = delegate.Build(&c, 1, 1, nil)
	if err != nil || len(out.Documents) != 0 || len(out.Skipped) != len(c.Documents) {
		t.Fatalf("no pools: %v, %d chains, skipped %d", err, len(out.Documents), len(out.Skipped))
	}
}

// TestBuildRungs: on the size ladder, each rung is one chain whose pairs
// are its documents' pool pairs renamed to a copy's ids; its even steps
// expect the rung itself byte for byte and its odd steps change it.
func TestBuildRungs(t *testing.T) {
	set := pooled(t)
	rungs, err := ladder.Build(set, ladder.Config{Rungs: []int{8 << 10}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := delegate.BuildRungs(set, rungs, 3, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Documents) != 1 || len(out.Tasks) != 6 || len(out.Order) != 1 || !strings.HasPrefix(out.Order[0], "8k: d") {
		t.Fatalf("%d documents, %d tasks, order %v; want one rung chain of 6 steps", len(out.Documents), len(out.Tasks), out.Order)
	}
	rung := out.Documents[0]
	for s := 1; s <= 6; s++ {
		st := out.Task(delegate.TaskID("8k", s))
		if st == nil || st.Rung != "8k" || st.Chain != "8k" {
			t.Fatalf("step %d: %+v", s, st)
		}
		same := bytes.Equal(bend.Marshal(st.Expected), rung.Bytes)
		if same != delegate.RoundTrip(s) {
			t.Errorf("step %d expects the rung itself: %v", s, same)
		}
		if !regexp.MustCompile(`\bd\d\dr\d-`).MatchString(st.Instruction) {
			t.Errorf("step %d's instruction names no copy's ids: %.200s", s, st.Instruction)
		}
	}
}
