package sensitivity

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"sync"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/linediff"
	"bendscript.com/round-trip-harness/task/tasktest"
)

var update = flag.Bool("update", false, "rewrite the golden file")

// table is the default table, computed once for the tests that read it.
var table struct {
	once sync.Once
	rows []Row
}

func defaultTable(t *testing.T) []Row {
	t.Helper()
	set := tasktest.Set(t)
	table.once.Do(func() { table.rows = Table(set, config.Default()) })
	return table.rows
}

// TestTableGolden pins the sensitivity table for the default weights and
// thresholds: docs/statistics.md quotes it under "What a pass means", and
// every report names the metric version it applies to.
func TestTableGolden(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := Write(&b, defaultTable(t)); err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/sensitivity.golden"
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, b.Bytes()) {
		t.Errorf("%s differs; go test -update rewrites it if the change is intended:\n%s", golden, linediff.Unified(string(want), b.String(), 3))
	}
}

// TestEveryLossFailsAGate: with the default thresholds, the control
// passes, and each canonical loss, made in every answer, fails at least
// one gate in each class; the sentence and meta losses pass §8.5 alone,
// which is why the harness's own gates exist.
func TestEveryLossFailsAGate(t *testing.T) {
	t.Parallel()
	rows := defaultTable(t)
	if len(rows) != 2*len(Losses) {
		t.Fatalf("%d rows, want %d", len(rows), 2*len(Losses))
	}
	for _, r := range rows {
		spec := false
		for _, f := range r.Fails {
			spec = spec || !strings.HasSuffix(f, "†")
		}
		switch {
		case r.Loss == "none" && len(r.Fails) > 0:
			t.Errorf("the control fails %v in class %s", r.Fails, r.Class)
		case r.Loss != "none" && len(r.Fails) == 0:
			t.Errorf("%s in class %s passes every gate", r.Loss, r.Class)
		case (r.Loss == "sentence" || r.Loss == "meta") && spec:
			t.Errorf("%s in class %s fails a §8.5 threshold (%v): the case no longer shows what §8.5 lets through", r.Loss, r.Class, r.Fails)
		}
		if r.N == 0 {
			t.Errorf("%s in class %s applies to no document", r.Loss, r.Class)
		}
	}
}
