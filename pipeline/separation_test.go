package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/transcript"
)

// TestTheInstrumentSeparates: on the gating and the natural suite, the
// offline models do worse, strictly, as their noise grows: oracle,
// noisy-low, noisy, noisy-high, identity (fewer edits applied in classes B
// and C together, or as many and more mean drift); and the exact
// intervals of the median drift of the oracle
// and of identity do not overlap in either class.
func TestTheInstrumentSeparates(t *testing.T) {
	t.Parallel()
	models := []string{"offline/oracle", "offline/noisy-low", "offline/noisy", "offline/noisy-high", "offline/identity"}
	for _, suite := range []string{suites.Gating, suites.Natural} {
		// The two suites are separate runs in separate directories.
		t.Run(suite, func(t *testing.T) {
			t.Parallel()
			o, _ := testOptions(t, models, "")
			o.Config.Judges = config.Judges{Models: []string{"offline/judge"}}
			o.Progress = nil
			// Classes B and C only: the test reads nothing of class A.
			o.Inputs.Suite, o.Inputs.Selection = suite, &transcript.Selection{Classes: []string{"b", "c"}}
			set, err := SuiteSet(o.Set, o.Inputs)
			if err != nil {
				t.Fatal(err)
			}
			o.Set = set
			res, err := Run(context.Background(), o)
			if err != nil && !errors.Is(err, ErrVerdictFail) {
				t.Fatal(err)
			}
			b, err := os.ReadFile(res.Reports[0])
			if err != nil {
				t.Fatal(err)
			}
			var rep report.Report
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatal(err)
			}
			applied, drift := make([]float64, len(models)), make([]float64, len(models))
			for i, m := range models {
				mr := rep.Results[m]
				b, c := mr.ClassB, mr.ClassC
				applied[i] = (*b.EditsApplied*float64(b.Scored) + *c.EditsApplied*float64(c.Scored)) / float64(b.Scored+c.Scored)
				n := 0
				for _, d := range append(slices.Clone(b.PerDocument), c.PerDocument...) {
					if d.Drift != nil {
						drift[i] += *d.Drift
						n++
					}
				}
				drift[i] /= float64(n)
			}
			// Each noisier model is worse than the one before: fewer edits
			// applied, or as many and more drift (the mean over documents).
			for i := 1; i < len(models); i++ {
				worse := applied[i] < applied[i-1] || applied[i] == applied[i-1] && drift[i] > drift[i-1]
				if !worse {
					t.Errorf("%s suite: %s is not worse than %s: edits applied %v, mean drift %v", suite, models[i], models[i-1], applied, drift)
				}
			}
			for _, class := range []string{"B", "C"} {
				oc, ic := rep.Results["offline/oracle"].Class(class), rep.Results["offline/identity"].Class(class)
				if oc.MedianInterval == nil || ic.MedianInterval == nil || oc.MedianInterval.High >= ic.MedianInterval.Low {
					t.Errorf("%s suite, class %s: median drift intervals oracle %+v, identity %+v overlap", suite, class, oc.MedianInterval, ic.MedianInterval)
				}
			}
			t.Logf("%s suite: edits applied %v, mean drift %v", suite, applied, drift)
		})
	}
}
