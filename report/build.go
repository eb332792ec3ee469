package report

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// Classes are the task classes in report order.
var Classes = []string{task.ClassA, task.ClassB, task.ClassC}

// key names one (model, task, repeat).
type key struct {
	model, task string
	repeat      int
}

// Build computes the report of a run. It is pure: the same Input gives the
// same Report, and ran_at is the manifest's start. A planned (model, task,
// repeat) absent from in.Scores counts as missing. in.Manifest and
// in.Config must not be nil.
func Build(in Input) *Report {
	scores := map[key]*scoring.Score{}
	for i := range in.Scores {
		s := &in.Scores[i]
		scores[key{s.Model, s.TaskID, s.Repeat}] = s
	}
	b := builder{repeats: in.Manifest.Repeats, seed: in.Manifest.Seed, scores: scores}
	formats := b.formatRows(in)
	in = documentsOnly(in)
	m := in.Manifest
	r := header(in)
	r.Formats = formats
	part := partOf(in)
	// The classes are the tasks of the suite's classes part ("all": the
	// gating suite's); its other parts have their own sections.
	byClass := tasksByClass(in, func(id string) bool { return suites.InClasses(r.Suite, part[id]) })
	for _, model := range m.Models {
		r.Results[model] = b.model(in, model, byClass)
	}
	for _, p := range suites.PartsOf(r.Suite) {
		switch p.Section {
		case sectionSize:
			r.Size = sizeRows(in)
		case sectionRelay:
			r.Relay, r.RelayModels = relaySteps(in, m.Seed)
		case sectionNatural:
			r.Natural = b.natural(m.Models, tasksByClass(in, func(id string) bool { return part[id] == p.Name }))
		}
	}
	r.Failures = failures(r)
	r.Verdict = verdictOf(r)
	r.Warnings = append(warnings(r, in), formatWarnings(r.Formats)...)
	return r
}

// header is the report's provenance: the run, its configuration, the
// metric and the statistics, with no result yet.
func header(in Input) *Report {
	m, cfg := in.Manifest, in.Config
	r := &Report{
		HarnessVersion: m.HarnessVersion,
		RanAt:          stamp(m.StartedAt),
		Models:         append([]string{}, m.Models...),
		Results:        map[string]*ModelResult{},
		Failures:       []Failure{},
		Schema:         SchemaVersion,
		RunID:          m.RunID,
		GitCommit:      m.GitCommit,
		MetricVersion:  metric.Version,
		Weights:        cfg.Weights,
		Thresholds:     cfg.Thresholds,
		CorpusHash:     m.CorpusHash,
		PromptHash:     m.PromptHash,
		ConfigHash:     m.ConfigHash,
		Judges:         append([]string{}, m.Judges...),
		Repeats:        m.Repeats,
		Seed:           m.Seed,
		Tasks:          len(m.TaskIDs),
		Quantile:       QuantileDefinition,
		Bootstrap:      BootstrapInfo{Resamples: Resamples, Level: 0.95, Seed: m.Seed},
		Warnings:       []string{},
		Suite:          cmp.Or(m.Inputs.Suite, suites.Gating),
		Partial:        m.Inputs.Selection,
		Custom:         customValues(cfg),
	}
	if in.RescoredAt != nil {
		r.RescoredAt = stamp(*in.RescoredAt)
	}
	return r
}

// model is one model's results: its classes, its determinism and who
// served its answers.
func (b *builder) model(in Input, model string, byClass map[string][]string) *ModelResult {
	m := in.Manifest
	mr := &ModelResult{Transcripts: "runs/" + m.RunID + "/" + transcript.Slug(model) + "/", Providers: map[string]int{}}
	if d, ok := m.Determinism[model]; ok {
		mr.Determinism = &d
	}
	for _, class := range Classes {
		if ids := byClass[class]; len(ids) > 0 {
			setClass(mr, class, b.class(model, class, ids))
		}
	}
	for _, s := range in.Scores {
		if s.Model == model && s.Status == scoring.StatusScored {
			mr.Providers[cmp.Or(s.Provider, "unknown")]++
		}
	}
	return mr
}

// verdictOf is the verdict of a report whose failures are known: pass or
// fail for a suite that gates, complete or incomplete for one that is
// information.
func verdictOf(r *Report) string {
	switch {
	case !gated(r.Suite) && len(r.Failures) > 0:
		return Incomplete
	case !gated(r.Suite):
		return Complete
	case len(r.Failures) > 0:
		return Fail
	}
	return Pass
}

// stamp formats t as RFC 3339 in UTC to the second.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// setClass stores c as class's detail and copies its headline numbers into
// the §8.7 fields.
func setClass(mr *ModelResult, class string, c *ClassResult) {
	switch class {
	case task.ClassA:
		mr.ClassA, mr.ClassAFaithfulness = c, c.Faithfulness
	case task.ClassB:
		mr.ClassB, mr.ClassBMedianDrift, mr.ClassBP95Drift = c, c.MedianDrift, c.P95Drift
	case task.ClassC:
		mr.ClassC, mr.ClassCMedianDrift, mr.ClassCP95Drift = c, c.MedianDrift, c.P95Drift
	}
}

// tasksByClass groups the run's task ids by class, in the manifest's order.
// A task's class comes from the task set, else from a score, else from its
// id (NN-a is class A).
func tasksByClass(in Input, keep func(id string) bool) map[string][]string {
	classOf := map[string]string{}
	for _, s := range in.Scores {
		classOf[s.TaskID] = s.Class
	}
	out := map[string][]string{}
	for _, id := range in.Manifest.TaskIDs {
		if !keep(id) {
			continue
		}
		c := classOf[id]
		if in.Set != nil {
			if t := in.Set.Task(id); t != nil {
				c = t.Class
			}
		}
		if c == "" {
			if i := strings.LastIndexByte(id, '-'); i >= 0 {
				c = strings.ToUpper(id[i+1:])
			}
		}
		out[c] = append(out[c], id)
	}
	return out
}

// natural computes the natural section: classes B and C over the natural
// tasks (byClass), per model.
func (b *builder) natural(models []string, byClass map[string][]string) map[string]*NaturalResult {
	out := map[string]*NaturalResult{}
	for _, m := range models {
		nr := &NaturalResult{}
		if ids := byClass[task.ClassB]; len(ids) > 0 {
			nr.ClassB = b.class(m, task.ClassB, ids)
		}
		if ids := byClass[task.ClassC]; len(ids) > 0 {
			nr.ClassC = b.class(m, task.ClassC, ids)
		}
		out[m] = nr
	}
	return out
}

// The report sections a suite's part may add (suites.Suite.Section).
const (
	sectionNatural = "natural"
	sectionSize    = "size"
	sectionRelay   = "relay"
)

// beside returns the name of the run's part whose tasks add section sec
// beside the classes (a part that is itself the classes is not beside
// them), or "".
func beside(suite, sec string) string {
	for _, p := range suites.PartsOf(suite) {
		if p.Section == sec && !suites.InClasses(suite, p.Name) {
			return p.Name
		}
	}
	return ""
}

// partOf maps each task id to the suite part it belongs to (task.Task's
// Suite, from the set, else from its scores).
func partOf(in Input) map[string]string {
	out := map[string]string{}
	for _, s := range in.Scores {
		out[s.TaskID] = s.Suite
	}
	if in.Set != nil {
		for _, t := range in.Set.Tasks {
			out[t.ID] = t.Suite
		}
	}
	return out
}

// builder computes ClassResults.
type builder struct {
	repeats int
	seed    int64
	scores  map[key]*scoring.Score
}

// classAcc accumulates one (model, class).
type classAcc struct {
	values     []float64   // per document with a value
	perRepeat  [][]float64 // per repeat, the values of that repeat's answers
	components [metric.NumComponents][]float64
	latencies  []float64
	evidence   []float64
	agreeable  int // answers with at least two valid votes
	agreeing   int // of those, unanimous

	residuals []float64 // per document with a value, its mean residual
	t         tally     // the class B or C answers, counted as every section counts them
}

func (b *builder) class(model, class string, ids []string) *ClassResult {
	c := &ClassResult{Class: class, Tasks: len(ids), Planned: len(ids) * b.repeats, PerDocument: []DocumentResult{}}
	if class == task.ClassA {
		c.Judging = &Judging{}
	}
	acc := classAcc{perRepeat: make([][]float64, b.repeats)}
	for _, id := range ids {
		c.PerDocument = append(c.PerDocument, b.document(model, class, id, c, &acc))
	}
	c.Documents = len(acc.values)
	c.LatencyMS = latency(acc.latencies)
	key := model + "/" + class
	if class == task.ClassA {
		b.finishA(c, &acc, key)
	} else {
		b.finishBC(c, &acc, key)
	}
	c.Noise = noise(acc.perRepeat, class)
	return c
}

// document accumulates one task's repeats into c and acc and returns its
// per-document entry.
func (b *builder) document(model, class, id string, c *ClassResult, acc *classAcc) DocumentResult {
	d := DocumentResult{TaskID: id, Repeats: make([]RepeatResult, b.repeats)}
	var vals, residuals []float64
	var comps [metric.NumComponents][]float64
	for r := range b.repeats {
		rr := RepeatResult{Repeat: r, Status: scoring.StatusMissing}
		s := b.scores[key{model, id, r}]
		if s != nil {
			rr.Status, rr.Transcript = s.Status, s.Transcript
			d.Document = s.Document
			addCalls(c, s)
		}
		switch rr.Status {
		case scoring.StatusMissing:
			c.Missing++
		case scoring.StatusAPIError:
			c.APIErrors++
		case scoring.StatusScored:
			c.Scored++
			acc.latencies = append(acc.latencies, float64(s.LatencyMS))
			v, ok := b.scored(class, s, c, acc, &comps)
			if ok {
				vals = append(vals, v)
				acc.perRepeat[r] = append(acc.perRepeat[r], v)
				setRepeat(&rr, class, s, v)
				if class != task.ClassA {
					residuals = append(residuals, s.Metric.Residual)
				}
			}
		}
		d.Repeats[r] = rr
	}
	if len(vals) == 0 {
		return d
	}
	v := stats.Mean(vals)
	acc.values = append(acc.values, v)
	if class == task.ClassA {
		d.Faithful = ptr(v)
		return d
	}
	d.Drift = ptr(v)
	d.Residual = ptr(stats.Mean(residuals))
	acc.residuals = append(acc.residuals, *d.Residual)
	for i := range comps {
		acc.components[i] = append(acc.components[i], stats.Mean(comps[i]))
	}
	d.Components = ptr(metric.ComponentsOf(func(i int) float64 { return stats.Mean(comps[i]) }))
	return d
}

// scored accounts for one scored answer and returns its value: the drift
// (B, C) or 1 for faithful and 0 for unfaithful (A).
func (b *builder) scored(class string, s *scoring.Score, c *ClassResult, acc *classAcc, comps *[metric.NumComponents][]float64) (float64, bool) {
	if class == task.ClassA {
		return scoredA(s, c, acc)
	}
	return scoredBC(s, acc, comps)
}

// scoredA accounts for a class A answer: its validity, evidence and the
// judges' votes; its value is 1 when judged faithful, 0 when not, and
// none when no judge decided.
func scoredA(s *scoring.Score, c *ClassResult, acc *classAcc) (float64, bool) {
	if s.Answer != nil {
		if !s.Answer.Valid {
			c.Invalid++
		} else {
			acc.evidence = append(acc.evidence, s.Answer.EvidenceResolved)
		}
	}
	j := c.Judging
	faithful, decided := decision(s.Judge)
	if decided {
		j.Decided++
	} else {
		j.Undecided++
	}
	vc := voteCount(s.Judge)
	j.Votes.Faithful += vc.Faithful
	j.Votes.Unfaithful += vc.Unfaithful
	j.Votes.Error += vc.Error
	j.Votes.Ungrounded += vc.Ungrounded
	if vc.Faithful+vc.Unfaithful >= 2 {
		acc.agreeable++
		if vc.Faithful == 0 || vc.Unfaithful == 0 {
			acc.agreeing++
		}
	}
	j.JudgeAPIErrors += s.JudgeAPIErrors
	switch {
	case !decided:
		// No valid vote: not measured, like an answering model's API
		// error. It is counted (Undecided) and makes the run
		// incomplete, but it is no evidence of unfaithfulness.
		return 0, false
	case faithful:
		return 1, true
	}
	return 0, true
}

// scoredBC accounts for a class B or C answer: its drift is its value,
// and its counts (invalid, lossless, unrequested changes, the edit
// applied) and components are accumulated.
func scoredBC(s *scoring.Score, acc *classAcc, comps *[metric.NumComponents][]float64) (float64, bool) {
	res := s.Metric
	if res == nil {
		return 0, false
	}
	acc.t.add(s, res.Drift)
	for i, x := range res.Components.List() {
		comps[i] = append(comps[i], x)
	}
	return res.Drift, true
}

func (b *builder) finishA(c *ClassResult, acc *classAcc, key string) {
	if len(acc.values) > 0 {
		c.Faithfulness = ptr(stats.Mean(acc.values))
		c.FaithfulnessInterval = interval(stats.Bootstrap(acc.values, stats.Mean, b.seed, key))
	}
	if len(acc.evidence) > 0 {
		c.EvidenceResolvedMean = ptr(stats.Mean(acc.evidence))
	}
	if acc.agreeable > 0 {
		c.Judging.Agreement = ptr(float64(acc.agreeing) / float64(acc.agreeable))
	}
}

func (b *builder) finishBC(c *ClassResult, acc *classAcc, key string) {
	if len(acc.values) > 0 {
		c.MedianDrift = ptr(stats.Median(acc.values))
		c.P95Drift = ptr(stats.P95(acc.values))
		c.MaxDrift = ptr(stats.Quantile(1, acc.values))
		c.MedianInterval = interval(stats.BootstrapQuantile(acc.values, 0.5, b.seed, key))
		c.ComponentMedians = ptr(metric.ComponentsOf(func(i int) float64 { return stats.Median(acc.components[i]) }))
	}
	if len(acc.residuals) > 0 {
		c.ResidualMedian = ptr(stats.Median(acc.residuals))
		c.ResidualP95 = ptr(stats.P95(acc.residuals))
	}
	t := acc.t
	c.Invalid, c.Lossless = t.invalid, t.lossless
	if c.Scored > 0 {
		n := float64(c.Scored)
		c.EditComplianceRate = ptr(float64(t.applied) / n)
		c.EditComplianceMean = ptr(t.compliance / n)
		c.LosslessRate = ptr(float64(t.lossless) / n)
		c.InvalidRate = ptr(float64(t.invalid) / n)
		c.UnchangedRate = ptr(float64(t.unchanged) / n)
	}
	if len(t.unrequested) > 0 {
		c.UnrequestedMedian = ptr(stats.Median(t.unrequested))
		c.UnrequestedMax = ptr(int(stats.Quantile(1, t.unrequested)))
	}
}

// noise is the headline number of each repeat alone and their range; nil
// for a single repeat.
func noise(perRepeat [][]float64, class string) *Noise {
	if len(perRepeat) < 2 {
		return nil
	}
	headline := stats.Median
	if class == task.ClassA {
		headline = stats.Mean
	}
	n := &Noise{PerRepeat: make([]*float64, len(perRepeat))}
	lo, hi, any := 0.0, 0.0, false
	for r, vals := range perRepeat {
		if len(vals) == 0 {
			continue
		}
		v := headline(vals)
		n.PerRepeat[r] = ptr(v)
		if !any || v < lo {
			lo = v
		}
		if !any || v > hi {
			hi = v
		}
		any = true
	}
	n.Range = hi - lo
	return n
}

// addCalls counts an answer's usage, cost and cut-off into its class.
func addCalls(c *ClassResult, s *scoring.Score) {
	addUsage(c, s)
	switch s.CutOff {
	case scoring.CutOffReasoning:
		c.CutOffReasoning++
	case scoring.CutOffOutput:
		c.CutOffOutput++
	}
}

// setRepeat records a measured answer's value (v) in its repeat's row: the
// judges' decision (A), or the drift and the harness's own measures (B, C).
func setRepeat(rr *RepeatResult, class string, s *scoring.Score, v float64) {
	if class == task.ClassA {
		f := v == 1
		rr.Faithful = &f
		return
	}
	rr.Drift = ptr(v)
	rr.Lossless, rr.Residual = ptr(s.Metric.Lossless), ptr(s.Metric.Residual)
	rr.Unrequested = s.Metric.UnrequestedChanges
	rr.EditApplied = ptr(s.Metric.EditApplied)
}

func addUsage(c *ClassResult, s *scoring.Score) {
	u := s.Usage
	c.Tokens.Prompt += u.PromptTokens
	c.Tokens.Completion += u.CompletionTokens
	c.Tokens.Cached += u.CachedTokens
	c.Tokens.Reasoning += u.ReasoningTokens
	c.Tokens.Estimated = c.Tokens.Estimated || u.Estimated
	if s.Status == scoring.StatusMissing {
		return
	}
	if u.Cost == nil {
		c.Cost.Unknown++
		return
	}
	c.Cost.USD += *u.Cost
}

func latency(ms []float64) Latency {
	if len(ms) == 0 {
		return Latency{}
	}
	return Latency{P50: int64(stats.Median(ms)), P95: int64(stats.P95(ms)), Max: int64(stats.Quantile(1, ms))}
}

func ptr[T any](v T) *T { return &v }

// documentsOnly is in without the answers in other formats than the whole
// document: the classes, the verdict and every suite's section are on
// whole-document answers; the others have the format comparison
// (formatRows). A run that names no format is returned as it is.
func documentsOnly(in Input) Input {
	if len(in.Manifest.Inputs.Formats) == 0 {
		return in
	}
	other := map[string]bool{}
	var scores []scoring.Score
	for _, s := range in.Scores {
		if s.Format != "" {
			other[s.TaskID] = true
			continue
		}
		scores = append(scores, s)
	}
	m := *in.Manifest
	m.TaskIDs = slices.DeleteFunc(slices.Clone(m.TaskIDs), func(id string) bool { return other[id] })
	in.Manifest, in.Scores, in.Outputs, in.Transcripts = &m, scores, nil, nil
	return in
}
