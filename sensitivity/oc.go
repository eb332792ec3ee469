package sensitivity

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/unit"
	"bendscript.com/round-trip-harness/verdict"
)

// The operating characteristics of the verdict (`harness corpus
// sensitivity --oc`): how often §8.5's gates, its verdict and its reading
// come out for models whose true behaviour sits at a given distance from
// the limits, by a seeded simulation of 20 documents per class. The table
// in docs/interpretations.md is this output, and a test checks that it
// still is.

// OCTrials and OCSeed are the simulation's size and seed: the published
// table is OC(config.Default(), OCDistances, OCTrials, OCSeed).
const (
	OCTrials = 2000
	OCSeed   = 44
)

// OCDistances are the distances of the table: r × every limit.
var OCDistances = []float64{0.5, 0.75, 0.9, 1, 1.1, 1.25, 1.5}

// nearPerfect is the distance of the two other models in §8.5's own
// scenario (one model near the limits, two passing cleanly).
const nearPerfect = 0.25

// OCRow is one distance r: a model whose true class B and C median and P95
// drift are r times their limits and whose true unfaithful share is r
// times what faithfulness allows (r = 1: exactly at every limit).
type OCRow struct {
	R float64
	// Holds is the chance each of §8.5's five thresholds holds, in the
	// order of report.Checks; Verdict that all five do (one model's part
	// of the §8.5 verdict).
	Holds   [5]float64
	Verdict float64
	// Three is the chance of each reading (pass, model-specific weakness,
	// protocol failure) when all three models sit at r; One when one does
	// and the other two at nearPerfect.
	Three, One [3]float64
}

// ocOutcomes are the readings counted, in OCRow order.
var ocOutcomes = []string{verdict.ReadingPass, verdict.ReadingWeakness, verdict.ReadingProtocolFailure}

// OC simulates trials runs at each distance with the thresholds and
// reading margins of cfg. The harness's own gates are left out: the table
// is §8.5's.
func OC(cfg *config.Config, distances []float64, trials int, seed uint64) []OCRow {
	t := cfg.Thresholds
	five := config.Thresholds{ClassAFaithfulnessMin: t.ClassAFaithfulnessMin, ClassBMedianMax: t.ClassBMedianMax, ClassBP95Max: t.ClassBP95Max,
		ClassCMedianMax: t.ClassCMedianMax, ClassCP95Max: t.ClassCP95Max}
	var rows []OCRow
	for _, r := range distances {
		rng := rand.New(rand.NewPCG(seed, math.Float64bits(r)))
		row := OCRow{R: r}
		for range trials {
			at := [3]*report.ModelResult{draw(rng, five, r), draw(rng, five, r), draw(rng, five, r)}
			three := read(five, cfg.Reading, at)
			one := read(five, cfg.Reading, [3]*report.ModelResult{at[0], draw(rng, five, nearPerfect), draw(rng, five, nearPerfect)})
			all := true
			for i, c := range three.Models[0].Checks {
				if c.Holds {
					row.Holds[i]++
				}
				all = all && c.Holds
			}
			if all {
				row.Verdict++
			}
			for i, o := range ocOutcomes {
				if three.Outcome == o {
					row.Three[i]++
				}
				if one.Outcome == o {
					row.One[i]++
				}
			}
		}
		n := float64(trials)
		for i := range row.Holds {
			row.Holds[i] /= n
		}
		row.Verdict /= n
		for i := range row.Three {
			row.Three[i] /= n
			row.One[i] /= n
		}
		rows = append(rows, row)
	}
	return rows
}

// ocModels name the simulated models: three vendors, so that the reading
// reads them as a run that may gate.
var ocModels = []string{"anthropic/a", "openai/b", "google/c"}

// read is §8.5's reading of three simulated models.
func read(t config.Thresholds, m config.Reading, models [3]*report.ModelResult) verdict.Reading {
	r := &report.Report{Models: ocModels, Results: map[string]*report.ModelResult{}, Thresholds: t, Suite: suites.Gating, Repeats: 1,
		Eligibility: verdict.Eligibility{Gates: true}}
	for i, name := range ocModels {
		r.Results[name] = models[i]
	}
	return aggregate.ReadingOf(r, m)
}

// draw is one model's 20 documents per class at distance r: class A
// documents faithful with chance 1 − r·(1 − min), class B and C drifts
// drawn from drift(r·median limit, r·P95 limit).
func draw(rng *rand.Rand, t config.Thresholds, r float64) *report.ModelResult {
	const n = 20
	mr := &report.ModelResult{}
	a := &report.ClassResult{Class: task.ClassA, Summary: report.Summary{Tasks: n}}
	k := 0
	for i := range n {
		f := 0.0
		if rng.Float64() >= r*(1-t.ClassAFaithfulnessMin) {
			f, k = 1, k+1
		}
		a.PerDocument = append(a.PerDocument, report.DocumentResult{TaskID: fmt.Sprintf("%02d-a", i+1), Faithful: &f})
	}
	a.Faithfulness = ptr(float64(k) / n)
	mr.ClassA = a
	for _, c := range []struct {
		class       string
		median, p95 float64
		set         func(*report.ClassResult)
	}{
		{task.ClassB, t.ClassBMedianMax, t.ClassBP95Max, func(c *report.ClassResult) { mr.ClassB = c }},
		{task.ClassC, t.ClassCMedianMax, t.ClassCP95Max, func(c *report.ClassResult) { mr.ClassC = c }},
	} {
		cr := &report.ClassResult{Class: c.class, Summary: report.Summary{Tasks: n}}
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = drift(rng.Float64(), r*c.median, r*c.p95)
			cr.PerDocument = append(cr.PerDocument, report.DocumentResult{TaskID: fmt.Sprintf("%02d-%s", i+1, strings.ToLower(c.class)), Drift: ptr(xs[i])})
		}
		cr.MedianDrift, cr.P95Drift = ptr(stats.Median(xs)), ptr(stats.P95(xs))
		c.set(cr)
	}
	return mr
}

// drift is the simulated drift distribution's quantile function: lossless
// (0) for 30% of documents, then linear up to the true median m at
// u = 0.5, to the true P95 p at u = 0.95, and to 1.5·p (at most 1) at
// u = 1: zero-inflated and skewed, as real drift is.
func drift(u, m, p float64) float64 {
	switch {
	case u <= 0.3:
		return 0
	case u <= 0.5:
		return m * (u - 0.3) / 0.2
	case u <= 0.95:
		return m + (p-m)*(u-0.5)/0.45
	}
	return p + (math.Min(1, 1.5*p)-p)*(u-0.95)/0.05
}

func ptr[T any](v T) *T { return &v }

// WriteOC prints the operating characteristics as two Markdown tables.
func WriteOC(w io.Writer, rows []OCRow, trials int, seed uint64) error {
	pc := func(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }
	var b strings.Builder
	fmt.Fprintf(&b, "Chance that each of §8.5's thresholds holds for one model, and all five (its part of the verdict), by the model's true distance from the limits (%d simulated runs of 20 documents per class, seed %d):\n\n", trials, seed)
	b.WriteString("| true values at | A faithfulness | B median | B P95 | C median | C P95 | all five |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s × the limits | %s | %s | %s | %s | %s | %s |\n", unit.Num(r.R), pc(r.Holds[0]), pc(r.Holds[1]), pc(r.Holds[2]), pc(r.Holds[3]), pc(r.Holds[4]), pc(r.Verdict))
	}
	fmt.Fprintf(&b, "\nChance of each §8.5 reading: all three models at the distance, and §8.5's own case, one model at it and two at %s × the limits:\n\n", unit.Num(nearPerfect))
	b.WriteString("| true values at | three: pass | weakness | protocol failure | one: pass | weakness | protocol failure |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s × the limits | %s | %s | %s | %s | %s | %s |\n", unit.Num(r.R), pc(r.Three[0]), pc(r.Three[1]), pc(r.Three[2]), pc(r.One[0]), pc(r.One[1]), pc(r.One[2]))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
