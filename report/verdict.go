package report

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// threshold is one threshold on one number of a model's results.
type threshold struct {
	metric string // the §8.7 field, or the harness's own metric name
	class  string
	label  string // for messages
	op     string // ">=" or "<="
	limit  float64
	value  func(*ModelResult) *float64
	own    bool // the harness's own threshold, beside §8.5
}

// gated reports whether a suite's verdict applies the thresholds: the
// gating suite's does, and so does "all" (on its gating tasks).
func gated(suite string) bool { return suites.Gates(suite) }

// The harness's own metrics, beside §8.5's (Failure.Metric).
const (
	MetricClassBEditApplied = "class_b_edit_applied"
	MetricClassCEditApplied = "class_c_edit_applied"
	MetricClassBResidualP95 = "class_b_residual_p95"
	MetricClassCResidualP95 = "class_c_residual_p95"
	MetricClassBInvalid     = "class_b_invalid"
	MetricClassCInvalid     = "class_c_invalid"
	MetricClassBUnchanged   = "class_b_unchanged"
	MetricClassCUnchanged   = "class_c_unchanged"
)

// field returns a function that reads one number of a class's detail;
// nil when the class is absent.
func field(class string, f func(*ClassResult) *float64) func(*ModelResult) *float64 {
	return func(m *ModelResult) *float64 {
		if c := m.Class(class); c != nil {
			return f(c)
		}
		return nil
	}
}

// ownGates lists the harness's own thresholds that t configures, in a
// fixed order: per class B then C, edits applied, residual P95, invalid
// share, unchanged share.
func ownGates(t config.Thresholds) []threshold {
	type gate struct {
		metric, label, op string
		limit             *float64
		value             func(*ClassResult) *float64
	}
	atLeast := func(v float64) *float64 {
		if v > 0 {
			return &v
		}
		return nil // 0 applies no gate
	}
	var out []threshold
	for _, class := range []string{task.ClassB, task.ClassC} {
		pick := func(b, c *float64) *float64 {
			if class == task.ClassB {
				return b
			}
			return c
		}
		lc := strings.ToLower(class)
		gates := []gate{
			{"class_" + lc + "_edit_applied", "edits applied", ">=", pick(atLeast(t.ClassBEditAppliedMin), atLeast(t.ClassCEditAppliedMin)), editApplied},
			{"class_" + lc + "_residual_p95", "P95 residual", "<=", pick(t.ClassBResidualP95Max, t.ClassCResidualP95Max), func(c *ClassResult) *float64 { return c.ResidualP95 }},
			{"class_" + lc + "_invalid", "answers invalid", "<=", pick(t.ClassBInvalidMax, t.ClassCInvalidMax), func(c *ClassResult) *float64 { return c.InvalidRate }},
			{"class_" + lc + "_unchanged", "answers without unrequested change", ">=", pick(atLeast(t.ClassBUnchangedMin), atLeast(t.ClassCUnchangedMin)), func(c *ClassResult) *float64 { return c.UnchangedRate }},
		}
		for _, g := range gates {
			if g.limit != nil {
				out = append(out, threshold{g.metric, class, "class " + class + " " + g.label, g.op, *g.limit, field(class, g.value), true})
			}
		}
	}
	return out
}

// editApplied is the fraction of a class's scored answers whose edit was
// fully applied; nil when nothing was scored.
func editApplied(c *ClassResult) *float64 { return c.EditComplianceRate }

// thresholds lists the §8.5 thresholds in the order of the §8.7 fields.
func (r *Report) thresholds() []threshold {
	t := r.Thresholds
	out := []threshold{
		{"class_a_faithfulness", task.ClassA, "class A faithfulness", ">=", t.ClassAFaithfulnessMin, func(m *ModelResult) *float64 { return m.ClassAFaithfulness }, false},
		{"class_b_median_drift", task.ClassB, "class B median drift", "<=", t.ClassBMedianMax, func(m *ModelResult) *float64 { return m.ClassBMedianDrift }, false},
		{"class_b_p95_drift", task.ClassB, "class B P95 drift", "<=", t.ClassBP95Max, func(m *ModelResult) *float64 { return m.ClassBP95Drift }, false},
		{"class_c_median_drift", task.ClassC, "class C median drift", "<=", t.ClassCMedianMax, func(m *ModelResult) *float64 { return m.ClassCMedianDrift }, false},
		{"class_c_p95_drift", task.ClassC, "class C P95 drift", "<=", t.ClassCP95Max, func(m *ModelResult) *float64 { return m.ClassCP95Drift }, false},
	}
	// The harness's own gates, where configured: a model that does not
	// edit, loses what §8.4 cannot see, returns documents a processor
	// rejects or changes what it was not asked to must not pass classes B
	// and C on low drift alone.
	return append(out, ownGates(t)...)
}

// share reports whether the threshold is on a share of answers (printed as
// a percentage) rather than a drift-like number.
func (t threshold) share() bool { return !strings.HasSuffix(t.metric, "_p95") }

// defaultLimits are the limits of the thresholds at their defaults (§8.5,
// and the harness's own gates), by metric.
func defaultLimits() map[string]float64 {
	out := map[string]float64{}
	for _, t := range (&Report{Thresholds: config.Default().Thresholds}).thresholds() {
		out[t.metric] = t.limit
	}
	return out
}

// custom reports whether the threshold's limit differs from its default:
// such a threshold is labelled custom wherever it shows, never §8.5.
func (t threshold) custom() bool {
	d, ok := defaultLimits()[t.metric]
	return !ok || d != t.limit
}

// source is whose threshold it is: custom, the harness's own, or §8.5.
func (t threshold) source() string {
	switch {
	case t.custom():
		return SourceCustom
	case t.own:
		return SourceHarness
	}
	return "§8.5"
}

// defaultText says what a custom threshold's default is.
func defaultText(t threshold) string {
	d, ok := defaultLimits()[t.metric]
	switch {
	case !ok:
		return "the harness has no default for it"
	case t.own:
		return fmt.Sprintf("the harness's default is %s %s", opSymbol(t.op), num(d))
	}
	return fmt.Sprintf("§8.5 says %s %s", opSymbol(t.op), num(d))
}

// customValues lists every threshold and weight whose configured value
// differs from its default, by configuration key. It compares the JSON
// forms, so a threshold or a weight added later is covered without a
// change here; a key absent from one side (omitted as zero) counts as 0.
func customValues(cfg *config.Config) []Custom {
	def := config.Default()
	out := []Custom{}
	out = append(out, differing("thresholds.", cfg.Thresholds, def.Thresholds)...)
	out = append(out, differing("weights.", cfg.Weights, def.Weights)...)
	if len(out) == 0 {
		return nil
	}
	return out
}

func differing(prefix string, got, want any) []Custom {
	g, w := floatFields(got), floatFields(want)
	keys := map[string]bool{}
	for k := range g {
		keys[k] = true
	}
	for k := range w {
		keys[k] = true
	}
	var out []Custom
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if g[k] != w[k] {
			out = append(out, Custom{Key: prefix + k, Value: g[k], Default: w[k]})
		}
	}
	return out
}

// floatFields is a struct's JSON form as numbers by key.
func floatFields(v any) map[string]float64 {
	b, _ := json.Marshal(v)
	out := map[string]float64{}
	_ = json.Unmarshal(b, &out)
	return out
}

// holds reports whether v passes the threshold; a value that was not
// measured does not.
func (t threshold) holds(v *float64) bool {
	if v == nil {
		return false
	}
	if t.op == ">=" {
		return *v >= t.limit
	}
	return *v <= t.limit
}

// failures enumerates every reason the verdict fails: each threshold that
// does not hold, and each incomplete model.
func failures(r *Report) []Failure {
	out := []Failure{}
	if len(r.Models) == 0 {
		out = append(out, Failure{Metric: MetricIncomplete, Op: "<=", Message: "the run has no models"})
	}
	if r.Partial != nil && gated(r.Suite) {
		out = append(out, Failure{Metric: MetricPartial, Op: "<=", Message: fmt.Sprintf(
			"partial run (%s: %d of the suite's %d tasks): a selection can never give the gating verdict pass", r.Partial, r.Tasks, r.Partial.Of)})
	}
	for _, model := range r.Models {
		mr := r.Results[model]
		for _, t := range r.thresholds() {
			if !gated(r.Suite) {
				break // an informational suite is judged on completeness alone
			}
			v := t.value(mr)
			if t.holds(v) {
				continue
			}
			f := Failure{Model: model, Metric: t.metric, Value: v, Op: t.op, Limit: t.limit, Source: t.source()}
			if v == nil {
				f.Message = fmt.Sprintf("%s: %s was not measured (%s)", model, t.label, unmeasured(mr.Class(t.class)))
			} else {
				f.Message = fmt.Sprintf("%s: %s %s, want %s %s", model, t.label, numVs(*v, t.limit), opSymbol(t.op), num(t.limit))
				if t.own && t.share() {
					f.Message = fmt.Sprintf("%s: %s %s, want %s %s", model, t.label, percent(*v), opSymbol(t.op), percent(t.limit))
				}
			}
			if t.custom() {
				f.Message += fmt.Sprintf(" (a custom threshold: %s)", defaultText(t))
			}
			out = append(out, f)
		}
		if n, why := incomplete(mr); n > 0 {
			out = append(out, Failure{
				Model: model, Metric: MetricIncomplete, Value: ptr(float64(n)), Op: "<=", Limit: 0,
				Message: fmt.Sprintf("%s: incomplete run: %s; an incomplete run cannot pass", model, why),
			})
		}
	}
	return out
}

// unmeasured says why a class has no headline number.
func unmeasured(c *ClassResult) string {
	if c == nil {
		return "the run has no task of this class"
	}
	return "no answer was scored"
}

// incomplete counts what makes a model's run incomplete and says what.
func incomplete(mr *ModelResult) (int, string) {
	var missing, apiErrors, undecided, judgeErrors int
	for _, class := range Classes {
		c := mr.Class(class)
		if c == nil {
			continue
		}
		missing += c.Missing
		apiErrors += c.APIErrors
		if c.Judging != nil {
			undecided += c.Judging.Undecided
			judgeErrors += c.Judging.JudgeAPIErrors
		}
	}
	var parts []string
	add := func(n int, one, many string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, plural(n, one, many)))
		}
	}
	add(missing, "missing transcript", "missing transcripts")
	add(apiErrors, "API error", "API errors")
	add(judgeErrors, "judge API error", "judge API errors")
	add(undecided, "class A answer without a valid judge vote", "class A answers without a valid judge vote")
	return missing + apiErrors + judgeErrors + undecided, strings.Join(parts, ", ")
}

// warnings lists what qualifies the verdict without deciding it.
func warnings(r *Report, in Input) []string {
	out := []string{}
	if in.Manifest.FinishedAt == nil {
		out = append(out, "the manifest records no finish: the run was interrupted or is still running")
	}
	if n := len(r.Models); n > 0 && n < 3 {
		out = append(out, fmt.Sprintf("%d %s: §8.5 gates on three frontier models (§8.6); this verdict covers only the models run", n, plural(n, "model", "models")))
	}
	if len(r.Custom) > 0 {
		var parts []string
		for _, c := range r.Custom {
			parts = append(parts, fmt.Sprintf("%s %s (default %s)", c.Key, num(c.Value), num(c.Default)))
		}
		out = append(out, fmt.Sprintf("custom configuration: %s; the verdict is not the §8.5 verdict", strings.Join(parts, ", ")))
	}
	if r.Partial != nil {
		out = append(out, fmt.Sprintf("partial run (%s): %d of the suite's %d tasks", r.Partial, r.Tasks, r.Partial.Of))
	}
	if !gated(r.Suite) {
		out = append(out, fmt.Sprintf("suite %s is informational: no §8.5 threshold applies, and the verdict says only whether the run is complete; the gating verdict comes from the gating suite", r.Suite))
	}
	if r.Repeats < 2 {
		out = append(out, "one repeat per task: inter-run noise is not measured (run with --repeats 3 to measure it)")
	}
	for _, s := range in.Scores {
		if s.Metric != nil && s.Metric.MetricVersion != metric.Version {
			out = append(out, fmt.Sprintf("scores were computed by metric version %q, not the current %q: rescore the run", s.Metric.MetricVersion, metric.Version))
			break
		}
	}
	for _, model := range r.Models {
		out = append(out, modelWarnings(model, r.Results[model])...)
	}
	out = append(out, scoring.ServedWarnings(in.Scores)...)
	return out
}

// modelWarnings qualify one model's numbers: determinism it lacks, more
// than one provider, and per class too few documents, cut-off answers,
// unknown costs and ungrounded judge votes.
func modelWarnings(model string, mr *ModelResult) []string {
	var out []string
	if d := mr.Determinism; d != nil && len(d.Lacking) > 0 {
		out = append(out, fmt.Sprintf("%s: does not support %s (not sent): its numbers are not reproducible call for call; --repeats N measures the noise", model, strings.Join(d.Lacking, " or ")))
	}
	if d := mr.Determinism; d != nil && d.Source == transcript.DeterminismUnchecked {
		out = append(out, fmt.Sprintf("%s: no preflight: temperature and seed were sent without knowing whether the model honours them", model))
	}
	if len(mr.Providers) > 1 {
		out = append(out, fmt.Sprintf("%s: answers were served by %d providers (%s): pin one with model_settings.provider in harness.yaml", model, len(mr.Providers), strings.Join(slices.Sorted(maps.Keys(mr.Providers)), ", ")))
	}
	for _, class := range Classes {
		out = append(out, classWarnings(model, class, mr.Class(class))...)
	}
	return out
}

// classWarnings qualify one (model, class).
func classWarnings(model, class string, c *ClassResult) []string {
	if c == nil {
		return []string{fmt.Sprintf("%s: the run has no class %s task", model, class)}
	}
	var out []string
	if c.Documents > 0 && c.Documents < 20 {
		out = append(out, fmt.Sprintf("%s class %s: statistics over %d documents, not the 20 of §8.5", model, class, c.Documents))
	}
	if c.CutOffReasoning > 0 {
		out = append(out, fmt.Sprintf("%s class %s: %d %s ran out of output budget while reasoning: raise model_settings max_tokens or lower the reasoning effort", model, class, c.CutOffReasoning, plural(c.CutOffReasoning, "answer", "answers")))
	}
	if c.CutOffOutput > 0 {
		out = append(out, fmt.Sprintf("%s class %s: %d %s cut off at the output budget (finish_reason length)", model, class, c.CutOffOutput, plural(c.CutOffOutput, "answer was", "answers were")))
	}
	if c.Cost.Unknown > 0 {
		out = append(out, fmt.Sprintf("%s class %s: cost unknown for %d of %d calls; the cost leaves them out", model, class, c.Cost.Unknown, c.Scored+c.APIErrors))
	}
	if j := c.Judging; j != nil && j.Votes.Ungrounded > 0 {
		out = append(out, fmt.Sprintf("%s class A: %d %s text the document does not hold", model, j.Votes.Ungrounded, plural(j.Votes.Ungrounded, "judge vote quotes", "judge votes quote")))
	}
	return out
}

// num formats a number for people: 4 decimals, trailing zeros dropped.
func num(v float64) string {
	return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(v, 'f', 4, 64), "0"), ".")
}

// numVs formats v beside limit: as num, unless that would print a failing
// value as the limit itself; then in full.
func numVs(v, limit float64) string {
	if s := num(v); s != num(limit) || v == limit {
		return s
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
