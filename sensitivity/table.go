package sensitivity

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/verdict"
)

// Row is one (loss, class) of the table.
type Row struct {
	Loss, Class string
	// N is the number of tasks of the class whose document had something
	// to lose.
	N int
	// Result is the class's detail as a report computes it over those
	// answers (median and P95 drift, component medians, lossless share,
	// residual, unchanged share).
	Result *report.ClassResult
	// Fails lists the thresholds a model making this loss in every answer
	// would fail: §8.5's by their §8.7 field, the harness's own marked †.
	Fails []string
}

// Table applies every loss to every class B and C task of set and scores
// the results with the weights and thresholds of cfg.
func Table(set *task.Set, cfg *config.Config) []Row {
	var rows []Row
	for _, l := range Losses {
		rows = append(rows, lossRows(l, set, cfg)...)
	}
	return rows
}

func lossRows(l Loss, set *task.Set, cfg *config.Config) []Row {
	var ids []string
	var scores []scoring.Score
	for _, t := range set.Tasks {
		if t.Class == task.ClassA {
			continue
		}
		ids = append(ids, t.ID)
		out := Apply(l, t.Source.Doc, t.Expected, t.GoldEdit)
		if out == nil {
			continue
		}
		res, _ := scoring.Metric(t, t.Source.Bytes, string(bend.Marshal(out)), cfg.Weights)
		scores = append(scores, scoring.Score{Model: l.Name, TaskID: t.ID, Class: t.Class, Document: t.DocumentName,
			Status: scoring.StatusScored, Metric: &res})
	}
	m := &transcript.Manifest{RunID: "sensitivity", Models: []string{l.Name}, TaskIDs: ids, Repeats: 1,
		StartedAt: time.Unix(0, 0).UTC(), Inputs: transcript.Inputs{Suite: suites.Gating}}
	r := aggregate.Build(aggregate.Input{Manifest: m, Config: cfg, Scores: scores, Set: set})
	mr := r.Results[l.Name]
	var rows []Row
	for _, class := range []string{task.ClassB, task.ClassC} {
		c := mr.Class(class)
		if c == nil {
			continue
		}
		row := Row{Loss: l.Name, Class: class, N: c.Scored, Result: c}
		for _, f := range r.Failures {
			if f.Metric == verdict.MetricIncomplete || !strings.HasPrefix(f.Metric, "class_"+strings.ToLower(class)+"_") {
				continue
			}
			name := strings.TrimPrefix(f.Metric, "class_"+strings.ToLower(class)+"_")
			if f.Source == verdict.SourceHarness {
				name += " †"
			}
			row.Fails = append(row.Fails, name)
		}
		rows = append(rows, row)
	}
	return rows
}

// Write prints the table: per loss and class, n, the median and P95 drift,
// each component's median, the lossless and unchanged shares, the median
// residual, and what would fail.
func Write(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "loss\tclass\tn\tmedian\tP95\t%s\tresidual\tlossless\tunchanged\twould fail\n", strings.Join(metric.ComponentLabels[:], "\t"))
	for _, r := range rows {
		c := r.Result
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t", r.Loss, r.Class, r.N, f3(c.MedianDrift), f3(c.P95Drift))
		for _, x := range c.ComponentMedians.List() {
			fmt.Fprintf(tw, "%.3f\t", x)
		}
		fails := strings.Join(r.Fails, ", ")
		if fails == "" {
			fails = "nothing: passes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f3(c.ResidualMedian), pct(c.Lossless), pct(c.Unchanged), fails)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nLosses, each applied once to every class B and C expected document at its first candidate place that the gold edit left alone and\n"+
		"where the result still carries out the edit and is a valid document (n counts the documents that have one); metric version %s:\n", metric.Version)
	for _, l := range Losses {
		fmt.Fprintf(w, "  %-10s %s\n", l.Name, l.Description)
	}
	fmt.Fprintln(w, "would fail: §8.5's thresholds by their §8.7 field (median_drift, p95_drift); † the harness's own gates.")
	return err
}

func f3(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", *v)
}

func pct(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", 100**v)
}
