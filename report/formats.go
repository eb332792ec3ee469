package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/ladder"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// FormatRow is one (model, suite part, answer format) of a run that asks
// class B and C tasks in more than the whole-document format (--formats):
// the same edits, answered as a whole document or as a patch applied to
// it, side by side. Information beside the verdict, which stays on the
// whole-document answers.
type FormatRow struct {
	Model string `json:"model"`
	Suite string `json:"suite"`
	// Rung is the size ladder's rung ("" in other suites): a rung's
	// answers are compared apart from the others', as the size matters.
	Rung   string `json:"rung,omitempty"`
	Format string `json:"format"`
	// Planned counts the (task, repeat) pairs; Scored those with an
	// answer, APIErrors and Missing the others.
	Planned   int `json:"planned"`
	Scored    int `json:"scored"`
	APIErrors int `json:"api_errors"`
	Missing   int `json:"missing"`
	// MedianDrift and P95Drift are over the scored answers, one value per
	// answer; null when none was scored.
	MedianDrift *float64 `json:"median_drift"`
	P95Drift    *float64 `json:"p95_drift"`
	// Lossless and EditsApplied are shares of the scored answers.
	Lossless     *float64 `json:"lossless"`
	EditsApplied *float64 `json:"edits_applied"`
	// FailedToApply counts the patch answers that did not apply (invalid,
	// drift 1, scoring.Score.ApplyFailure); Invalid every answer that held
	// no document or one that fails validation, those included.
	FailedToApply int `json:"failed_to_apply"`
	Invalid       int `json:"invalid"`
	// OutputTokens are the scored answers' completion tokens; Estimated
	// says some were estimated from the answer's length (offline models
	// count none). AnswerBytes is the scored answers' length in bytes.
	OutputTokens int64 `json:"output_tokens"`
	Estimated    bool  `json:"output_tokens_estimated,omitempty"`
	AnswerBytes  int64 `json:"answer_bytes"`
	// Cost is in USD, CostUnknown the calls whose cost is unknown.
	Cost        float64 `json:"cost_usd"`
	CostUnknown int     `json:"cost_unknown"`
	// MedianLatencyMS is over the answers that arrived; null when none did.
	MedianLatencyMS *float64 `json:"median_latency_ms"`
	// Feedback rounds (--feedback; null and absent without them):
	// WellFormedFirst, AppliedFirst and LosslessFirst are the shares of
	// first answers that were well-formed (parsed in the format, applied,
	// validated: scoring.WellFormed), had the edit applied and were
	// lossless; WellFormedAfter is the share of scored answers well-formed
	// after the rounds (their edits applied and lossless shares are
	// EditsApplied and Lossless). FeedbackRounds counts the rounds asked.
	WellFormedFirst *float64 `json:"well_formed_first,omitempty"`
	AppliedFirst    *float64 `json:"edits_applied_first,omitempty"`
	LosslessFirst   *float64 `json:"lossless_first,omitempty"`
	WellFormedAfter *float64 `json:"well_formed_after_feedback,omitempty"`
	FeedbackRounds  int      `json:"feedback_rounds,omitempty"`
	// ClassB and ClassC are the classes' results in this format, per task
	// as the classes have them (null without tasks of the class).
	ClassB *ClassResult `json:"class_b,omitempty"`
	ClassC *ClassResult `json:"class_c,omitempty"`
}

// formatName is a score's answer format as the report names it.
func formatName(s *scoring.Score) string { return cmp.Or(s.Format, formats.Document) }

// formatRows computes the format comparison from the class B and C scores
// of a run that names answer formats (transcript.Inputs.Formats): per
// model (in run order), suite part (and size rung) and format (in the
// run's order), with
// each class's per-task results as the classes have them (builder.class),
// so that compare pairs tasks within a format.
func (b *builder) formatRows(in Input) []FormatRow {
	document := formats.Document
	formats := in.Manifest.Inputs.Formats
	if len(formats) == 0 && in.Manifest.Inputs.Feedback > 0 {
		// The first tries and the rounds are reported per format, the
		// whole document included.
		formats = []string{document}
	}
	if len(formats) == 0 {
		return nil
	}
	type part struct{ suite, rung string }
	type key struct {
		model  string
		part   part
		format string
	}
	groups := map[key][]*scoring.Score{}
	ids := map[key]map[string][]string{} // by class, in plan order
	var parts []part
	for i := range in.Scores {
		s := &in.Scores[i]
		if s.Class == task.ClassA {
			continue
		}
		k := key{s.Model, part{s.Suite, s.Rung}, formatName(s)}
		groups[k] = append(groups[k], s)
		if ids[k] == nil {
			ids[k] = map[string][]string{}
		}
		if c := ids[k][s.Class]; len(c) == 0 || c[len(c)-1] != s.TaskID {
			ids[k][s.Class] = append(c, s.TaskID)
		}
		if !slices.Contains(parts, k.part) {
			parts = append(parts, k.part)
		}
	}
	sortParts(parts, func(p part) string { return p.suite }, func(p part) string { return p.rung })
	var out []FormatRow
	for _, m := range in.Manifest.Models {
		for _, p := range parts {
			for _, f := range formats {
				k := key{m, p, f}
				if ss := groups[k]; len(ss) > 0 {
					row := formatRow(m, p.suite, f, ss)
					row.Rung = p.rung
					row.ClassB, row.ClassC = b.formatClass(m, task.ClassB, ids[k]), b.formatClass(m, task.ClassC, ids[k])
					out = append(out, row)
				}
			}
		}
	}
	return out
}

// formatClass is one class's result in one format; nil without tasks.
func (b *builder) formatClass(model, class string, ids map[string][]string) *ClassResult {
	if len(ids[class]) == 0 {
		return nil
	}
	return b.class(model, class, ids[class])
}

// formatRow counts up one group (tallyOf, the one summary).
func formatRow(model, suite, format string, ss []*scoring.Score) FormatRow {
	t := tallyOf(ss)
	row := FormatRow{Model: model, Suite: suite, Format: format, Planned: t.planned, Scored: t.scored,
		APIErrors: t.apiErrors, Missing: t.missing, Invalid: t.invalid, OutputTokens: t.outputTokens, Estimated: t.estimated,
		Cost: t.cost, CostUnknown: t.costUnknown}
	row.MedianDrift, row.P95Drift = t.medianP95()
	row.EditsApplied, row.Lossless = t.shares()
	row.WellFormedFirst, row.AppliedFirst, row.LosslessFirst, row.WellFormedAfter = t.firstShares()
	row.FeedbackRounds = t.rounds
	var latencies []float64
	for _, s := range ss {
		if s.ApplyFailure != nil {
			row.FailedToApply++
		}
		if s.Status == scoring.StatusScored && !s.NotRun {
			row.AnswerBytes += int64(s.AnswerBytes)
			latencies = append(latencies, float64(s.LatencyMS))
		}
	}
	if len(latencies) > 0 {
		row.MedianLatencyMS = ptr(stats.Median(latencies))
	}
	return row
}

// formatTable is the format comparison per model, suite part and format.
func formatTable(r *Report) *reportTable {
	if len(r.Formats) == 0 {
		return nil
	}
	note := "The same class B and C edits, answered as the whole document or as a patch the harness applies to the document the model was given; the output is scored as a whole-document answer is. Failed to apply: patches that did not apply (invalid, drift 1). Output tokens marked ≈ are estimated from the answer's length (offline models count none). Information: the verdict is on whole-document answers."
	t := &reportTable{ID: "formats-table", Note: note, MDTitle: "Answer formats", MDNote: note,
		MDAlign: "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
		Head: []string{"model", "suite", "format", "n", "median drift", "P95 drift", "lossless", "edits applied", "failed to apply",
			"invalid", "output tokens", "tokens vs document", "answer bytes", "vs document", "cost (USD)", "median latency (ms)"}}
	feedback := slices.ContainsFunc(r.Formats, func(row FormatRow) bool { return row.WellFormedFirst != nil })
	if feedback {
		t.Note += feedbackNote
		t.MDNote, t.MDAlign = t.Note, t.MDAlign+"---:|---:|---:|---:|---:|"
		t.Head = append(t.Head, "well-formed 1st try", "applied 1st try", "lossless 1st try", "well-formed after feedback", "feedback rounds")
	}
	for _, row := range r.Formats {
		tokens := tokenText(row.OutputTokens, row.Estimated)
		cells := []string{row.Model, strings.TrimSpace(row.Suite + " " + row.Rung), row.Format, strconv.Itoa(row.Scored), numOr(row.MedianDrift, "n/a"), numOr(row.P95Drift, "n/a"),
			percentOr(row.Lossless), percentOr(row.EditsApplied), strconv.Itoa(row.FailedToApply), strconv.Itoa(row.Invalid),
			tokens, tokensVsDocument(r, row), strconv.FormatInt(row.AnswerBytes, 10), vsDocument(r, row), costText(row.Cost, row.CostUnknown), numOr(row.MedianLatencyMS, "n/a")}
		if feedback {
			cells = append(cells, percentOr(row.WellFormedFirst), percentOr(row.AppliedFirst), percentOr(row.LosslessFirst),
				percentOr(row.WellFormedAfter), strconv.Itoa(row.FeedbackRounds))
		}
		t.add(cells...)
	}
	return t
}

// feedbackNote explains the feedback columns of the format table.
const feedbackNote = " With feedback rounds (--feedback), an answer that did not parse, apply or validate was asked again in the same conversation, told only its mechanical failure; drift, lossless and edits applied are the last round's answer's. Well-formed: parsed in its format, applied, and a valid .bend document. The 1st-try columns are the first answers' alone (the one-shot numbers); feedback rounds counts the rounds asked."

// vsDocument is a row's mean answer bytes as a share of the
// whole-document answers' of the same model and suite part ("n/a"
// without them).
func vsDocument(r *Report, row FormatRow) string {
	return shareOfDocument(r, row, func(x FormatRow) float64 { return float64(x.AnswerBytes) })
}

// tokensVsDocument is a row's mean output tokens (every feedback round's
// included: what was paid) as a share of the whole-document answers' of
// the same model and suite part ("n/a" without them).
func tokensVsDocument(r *Report, row FormatRow) string {
	return shareOfDocument(r, row, func(x FormatRow) float64 { return float64(x.OutputTokens) })
}

// shareOfDocument is a row's mean of value per scored answer as a share of
// the whole-document row's of the same model and suite part.
func shareOfDocument(r *Report, row FormatRow, value func(FormatRow) float64) string {
	for _, d := range r.Formats {
		if d.Model == row.Model && d.Suite == row.Suite && d.Rung == row.Rung && d.Format == formats.Document && value(d) > 0 && row.Scored > 0 {
			share := value(row) / float64(row.Scored) / (value(d) / float64(d.Scored))
			return strconv.FormatFloat(100*share, 'f', 2, 64) + "%"
		}
	}
	return "n/a"
}

// formatPoint is one (model, format, document size): the median drift
// and median output tokens of its scored answers.
type formatPoint struct {
	format        string
	bytes         int
	drift, tokens float64
}

// formatPoints groups the class B and C scores of a multi-format run per
// model, format and source document size.
func formatPoints(in Input) map[string][]formatPoint {
	if len(in.Manifest.Inputs.Formats) == 0 || in.Set == nil {
		return nil
	}
	type key struct {
		model, format string
		bytes         int
	}
	drifts, tokens := map[key][]float64{}, map[key][]float64{}
	for i := range in.Scores {
		s := &in.Scores[i]
		t := in.Set.Task(s.TaskID)
		d, ok := s.Drift()
		if t == nil || s.Class == task.ClassA || !ok || s.NotRun {
			continue
		}
		k := key{s.Model, formatName(s), len(t.Source.Bytes)}
		drifts[k] = append(drifts[k], d)
		tokens[k] = append(tokens[k], float64(s.Usage.CompletionTokens))
	}
	out := map[string][]formatPoint{}
	for k, ds := range drifts {
		out[k.model] = append(out[k.model], formatPoint{k.format, k.bytes, stats.Median(ds), stats.Median(tokens[k])})
	}
	for _, ps := range out {
		slices.SortFunc(ps, func(a, b formatPoint) int {
			return cmp.Or(strings.Compare(a.format, b.format), cmp.Compare(a.bytes, b.bytes))
		})
	}
	return out
}

// formatShapes are the marks of the formats, in the run's order.
var formatShapes = []string{"circle", "triangle", "square"}
var formatClasses = []string{"m0", "m1", "m2", "m3"} // a fourth colour, so that a fourth format's circle is not the first's

// newFormatPlots are the format comparison's charts, two per model with
// shared axes: drift against the size of the document the answer was
// given, and output tokens (log scale) against it, one series per format.
func newFormatPlots(r *Report, in Input) []chart {
	points := formatPoints(in)
	if len(points) == 0 {
		return nil
	}
	lo, hi, topDrift, topTokens := math.Inf(1), math.Inf(-1), 0.0, 1.0
	for _, ps := range points {
		for _, p := range ps {
			b := math.Log(float64(max(p.bytes, 1)))
			lo, hi = math.Min(lo, b), math.Max(hi, b)
			topDrift, topTokens = math.Max(topDrift, p.drift), math.Max(topTokens, p.tokens)
		}
	}
	var out []chart
	for _, m := range r.Models {
		if ps := points[m]; len(ps) > 0 {
			out = append(out, formatPlot(m, "drift", ps, in.Manifest.Inputs.Formats, lo, hi, niceTop(topDrift)),
				formatPlot(m, "tokens", ps, in.Manifest.Inputs.Formats, lo, hi, math.Log10(topTokens+1)))
		}
	}
	return out
}

// formatPlot is one model's chart of what (drift, or output tokens on a
// log scale whose top is log10(tokens+1) = top) against document size.
func formatPlot(model, what string, ps []formatPoint, formats []string, lo, hi, top float64) chart {
	caption, yTitle := model+": drift against document size, per answer format", "median drift (0 = as expected)"
	if what == "tokens" {
		caption, yTitle = model+": output tokens against document size, per answer format", "median output tokens (log scale)"
	}
	p := newChart("formats-"+what+"-"+transcript.Slug(model), caption, "document size (KiB, log scale)", yTitle)
	p.yScale(math.Max(top, 1e-9))
	if what == "tokens" {
		p.YTicks = nil
		for _, v := range []float64{0, top / 2, top} {
			p.YTicks = append(p.YTicks, plotTick{X: f1(p.x0f - 6), Y: f1(p.y(v) + 4), Label: strconv.FormatFloat(math.Pow(10, v)-1, 'f', 0, 64)})
		}
	}
	x := func(bytes int) float64 {
		if hi == lo {
			return (p.x0f + p.x1f) / 2
		}
		return p.x0f + (p.x1f-p.x0f)*(0.08+0.84*(math.Log(float64(max(bytes, 1)))-lo)/(hi-lo))
	}
	seen := map[int]bool{}
	for fi, f := range formats {
		shape, class := formatShapes[fi%len(formatShapes)], formatClasses[fi%len(formatClasses)]
		var line []string
		for _, pt := range ps {
			if pt.format != f {
				continue
			}
			v := pt.drift
			if what == "tokens" {
				v = math.Log10(pt.tokens + 1)
			}
			cx := x(pt.bytes)
			seen[pt.bytes] = true
			p.mark(shape, class, cx, p.y(v), "", fmt.Sprintf("%s, %d bytes: median drift %s, median output tokens %.0f", f, pt.bytes, num(pt.drift), pt.tokens))
			line = append(line, f1(cx)+","+f1(p.y(v)))
		}
		p.Polylines = append(p.Polylines, polyline{class, strings.Join(line, " ")})
		p.Legend = append(p.Legend, legendItem{Kind: shape, Class: class, Label: f})
	}
	sizes := make([]int, 0, len(seen))
	for b := range seen {
		sizes = append(sizes, b)
	}
	slices.Sort(sizes)
	for i, b := range sizes {
		p.xTick(x(b), kib(b), "", i == len(sizes)-1)
	}
	return p
}

// formatWarnings says which formats' answers are incomplete: the verdict
// does not count them, so the warning is where a resume is asked for.
func formatWarnings(rows []FormatRow) []string {
	var out []string
	for _, row := range rows {
		if row.Format != formats.Document && row.Missing+row.APIErrors > 0 {
			out = append(out, fmt.Sprintf("%s, %s answers (%s): %d missing and %d API errors of %d; resume the run to complete them",
				row.Model, row.Format, row.Suite, row.Missing, row.APIErrors, row.Planned))
		}
	}
	return out
}

// sortParts orders groups by suite, as first seen, then by size rung, in
// size order (ladder.ParseSizes; "" first).
func sortParts[P any](parts []P, suite, rung func(P) string) {
	first := map[string]int{}
	for i, p := range parts {
		if _, ok := first[suite(p)]; !ok {
			first[suite(p)] = i
		}
	}
	bytes := func(r string) int {
		if n, err := ladder.ParseSizes(r); err == nil && len(n) == 1 {
			return n[0]
		}
		return 0
	}
	slices.SortStableFunc(parts, func(a, b P) int {
		return cmp.Or(cmp.Compare(first[suite(a)], first[suite(b)]), cmp.Compare(bytes(rung(a)), bytes(rung(b))))
	})
}

// tokenText is a token count, marked ≈ when it is an estimate.
func tokenText(n int64, estimated bool) string {
	if estimated {
		return "≈" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}
