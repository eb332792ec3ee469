package aggregate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/verdict"
)

// key names one (model, task, repeat).
type key struct {
	model, task string
	repeat      int
}

// Build computes the report of a run. It is pure: the same Input gives the
// same Report, and ran_at is the manifest's start. A planned (model, task,
// repeat) absent from in.Scores counts as missing. in.Manifest and
// in.Config must not be nil.
func Build(in Input) *report.Report {
	b := newBuilder(in)
	m := in.Manifest
	r := header(in)
	r.Formats = slices.Clone(m.Inputs.Formats)
	r.Tasks, r.Jobs = len(m.TaskIDs), len(m.Models)*len(m.TaskIDs)*m.Repeats
	// The classes are the whole-document answers to the tasks of the
	// suite's classes part ("all": the gating suite's), which §8.5 gates;
	// every part (and every answer format) has its section beside them.
	byClass := tasksByClass(in, func(id string) bool {
		return b.suite.InClasses(b.part[id]) && formats.Of(b.format[id]).Whole
	})
	for _, model := range m.Models {
		r.Results[model] = b.model(in, model, byClass)
	}
	// A run of several formats, or with feedback rounds (whose first
	// tries are reported per format), shows its classes per format too;
	// so does a suite whose tasks answer in several formats of their own
	// (produce: P a document, R a projection).
	multi := formats.Several(m.Inputs.Formats) || b.severalFormats()
	for _, p := range b.suite.Parts() {
		if p.Grouping != nil && (multi || m.Inputs.Feedback > 0 || !p.Grouping.WithFormats) {
			r.Sections = append(r.Sections, b.section(p.Name, p.Grouping, multi))
		}
	}
	r.Calls = b.summarize(in.Scores, "", []string{suites.ByClass}, "", func(x, y report.Key) int {
		return cmp.Or(cmp.Compare(b.partIndex[x.Part], b.partIndex[y.Part]), cmp.Compare(x.Class, y.Class))
	})
	r.FormatPoints = b.formatPoints(in)
	r.Answers = Answers(in)
	r.Failures = failures(r, b.suite.Gates)
	r.Verdict = verdictOf(r.Failures, b.suite.Gates)
	r.Warnings = warnings(r, in)
	r.Eligibility = eligibility(r, in)
	r.Reading = readingOf(r, in.Config.Reading)
	return r
}

// header is the report's provenance: the run, its configuration, the
// metric and the statistics, with no result yet.
func header(in Input) *report.Report {
	m, cfg := in.Manifest, in.Config
	r := &report.Report{
		HarnessVersion: m.HarnessVersion,
		RanAt:          stamp(m.StartedAt),
		Models:         append([]string{}, m.Models...),
		Results:        map[string]*report.ModelResult{},
		Failures:       []verdict.Failure{},
		Schema:         report.SchemaVersion,
		RunID:          m.RunID,
		APIRoot:        m.Inputs.BaseURL,
		Integrity:      in.Integrity,
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
		Intervals:      intervalInfo(),
		Warnings:       []report.Warning{},
		Suite:          suites.Of(m.Inputs.Suite).Name,
		Partial:        m.Inputs.Selection,
		Custom:         verdict.CustomValues(cfg),
	}
	if in.RescoredAt != nil {
		r.RescoredAt = stamp(*in.RescoredAt)
	}
	return r
}

// model is one model's results: its classes, its determinism and who
// served its answers.
func (b *builder) model(in Input, model string, byClass map[string][]string) *report.ModelResult {
	m := in.Manifest
	mr := &report.ModelResult{Transcripts: "runs/" + m.RunID + "/" + transcript.Slug(model) + "/", Providers: map[string]int{}}
	if d, ok := m.Determinism[model]; ok {
		mr.Determinism = &d
	}
	for _, class := range report.Classes {
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
// information. The verdict is where the report keeps whether its suite
// gates (report.Report.Informational).
func verdictOf(failures []verdict.Failure, gates bool) string {
	switch {
	case !gates && len(failures) > 0:
		return report.Incomplete
	case !gates:
		return report.Complete
	case len(failures) > 0:
		return report.Fail
	}
	return report.Pass
}

// stamp formats t as RFC 3339 in UTC to the second.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// setClass stores c as class's detail and copies its headline numbers into
// the §8.7 fields.
func setClass(mr *report.ModelResult, class string, c *report.ClassResult) {
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

// builder computes the report's numbers from the scores.
type builder struct {
	repeats int
	// scores are every planned answer's score (newBuilder adds a missing
	// one for each planned answer in.Scores lacks), answers the same by
	// (model, task, repeat).
	scores  []scoring.Score
	answers map[key]*scoring.Score
	set     *task.Set
	// part and format are each task's suite part and answer format.
	part, format map[string]string
	// The run's orders: models, suite parts and answer formats.
	modelIndex, partIndex, formatIndex map[string]int
	thresholds                         config.Thresholds
	suite                              *suites.Suite  // the run's suite (its Classes make the classes)
	plan                               map[string]int // each task's place in the manifest
	wholeBytes                         map[string]int // each task's expected document's length (wholeSize)
}

// newBuilder indexes the scores of in.
func newBuilder(in Input) *builder {
	m := in.Manifest
	b := &builder{repeats: m.Repeats, set: in.Set, thresholds: in.Config.Thresholds,
		answers: map[key]*scoring.Score{}, part: map[string]string{}, format: map[string]string{}, wholeBytes: map[string]int{},
		modelIndex: indexOf(m.Models), formatIndex: indexOf(m.Inputs.Formats), plan: indexOf(m.TaskIDs)}
	b.partIndex = map[string]int{}
	b.suite = suites.Of(m.Inputs.Suite)
	for i, p := range b.suite.Parts() {
		b.partIndex[p.Name] = i
	}
	b.scores = withMissing(in)
	for i := range b.scores {
		s := &b.scores[i]
		b.answers[key{s.Model, s.TaskID, s.Repeat}] = s
		b.part[s.TaskID], b.format[s.TaskID] = b.partOf(s), s.Format
	}
	return b
}

// partOf is the suite part of a score's task: its own, else the suite's
// classes part (a score of a run that recorded none).
func (b *builder) partOf(s *scoring.Score) string {
	if s.Suite != "" {
		return s.Suite
	}
	if p := b.part[s.TaskID]; p != "" {
		return p
	}
	return b.suite.Classes
}

// indexOf maps each name to its place in names.
func indexOf(names []string) map[string]int {
	out := make(map[string]int, len(names))
	for i, n := range names {
		out[n] = i
	}
	return out
}

// withMissing is in.Scores with a missing score for every planned (model,
// task, repeat) it lacks, placed as the task set (or the task's id) says.
func withMissing(in Input) []scoring.Score {
	m := in.Manifest
	have := map[key]bool{}
	for _, s := range in.Scores {
		have[key{s.Model, s.TaskID, s.Repeat}] = true
	}
	var missing []scoring.Score
	for _, model := range m.Models {
		for _, id := range m.TaskIDs {
			for r := range m.Repeats {
				if !have[key{model, id, r}] {
					missing = append(missing, missingScore(in.Set, model, id, r))
				}
			}
		}
	}
	if len(missing) == 0 {
		// Nothing to add: the scores themselves (the builder only reads
		// them), not a second copy of every score (issue 55).
		return in.Scores
	}
	return append(slices.Clip(in.Scores), missing...)
}

// missingScore is the score of an answer the run planned and never got.
func missingScore(set *task.Set, model, id string, repeat int) scoring.Score {
	s := scoring.Score{Model: model, TaskID: id, Repeat: repeat, Status: scoring.StatusMissing}
	var t *task.Task
	if set != nil {
		t = set.Task(id)
	}
	if t == nil {
		if i := strings.LastIndexByte(id, '-'); i >= 0 {
			s.Class = strings.ToUpper(id[i+1:])
		}
		return s
	}
	s.Class, s.Document, s.Suite, s.Chain, s.Step = t.Class, t.DocumentName, t.Suite, t.Chain, t.Step
	s.Rung, s.Position, s.Format = t.Rung, t.Position, t.Format
	return s
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

	residuals []float64 // per document with a value, its first scored repeat's residual
	drifts    []float64 // per class B or C document with a value, its first scored repeat's drift
	t         tally     // the class B or C answers, counted as every section counts them
	first     tally     // the same of each document's first scored answer: what the shares are over
}

func (b *builder) class(model, class string, ids []string) *report.ClassResult {
	g := b.accumulate(model, ids, func(string) string { return class })
	c := g.c
	c.Class = class
	c.Summary = b.summary(g, true)
	if class == task.ClassA {
		b.finishA(c, &g.acc)
	} else {
		finishBC(c, &g.acc)
		gateIntervals(c, &g.acc)
		c.Repeatability = repeatability(c.PerDocument, b.repeats)
	}
	c.Noise = noise(g.acc.perRepeat, class)
	return c
}

// document accumulates one task's repeats into c and acc and returns its
// per-document entry.
func (b *builder) document(model, class, id string, c *report.ClassResult, acc *classAcc) report.DocumentResult {
	d := report.DocumentResult{TaskID: id, Repeats: make([]report.RepeatResult, b.repeats)}
	var vals, residuals []float64
	var comps [metric.NumComponents][]float64
	var first *scoring.Score // the first scored repeat with a value: the document's value
	for r := range b.repeats {
		rr := report.RepeatResult{Repeat: r, Status: scoring.StatusMissing}
		s := b.answers[key{model, id, r}]
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
			if c.FirstAPIError == "" && s.Error != nil {
				c.FirstAPIError = s.Error.Message
			}
			if s.Error != nil {
				c.FailedCalls = append(c.FailedCalls, failedCall(id, r, s.Error))
			}
		case scoring.StatusScored:
			c.Scored++
			acc.latencies = append(acc.latencies, float64(s.LatencyMS))
			v, ok := b.scored(class, s, c, acc, &comps)
			if ok {
				if first == nil {
					first = s
				}
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
	// The document's value is its first scored repeat's, whatever the
	// number of repeats (docs/interpretations.md, §8.5 and repeats): a
	// mean over k repeats shrinks the P95 as k grows, and a pass could be
	// bought with repeats.
	v := vals[0]
	acc.values = append(acc.values, v)
	if class == task.ClassA {
		d.Faithful = ptr(v)
		return d
	}
	acc.first.add(first)
	d.Drift = ptr(v)
	acc.drifts = append(acc.drifts, v)
	d.Residual = ptr(residuals[0])
	acc.residuals = append(acc.residuals, *d.Residual)
	for i := range comps {
		acc.components[i] = append(acc.components[i], comps[i][0])
	}
	d.Components = ptr(metric.ComponentsOf(func(i int) float64 { return comps[i][0] }))
	return d
}

// scored accounts for one scored answer and returns its value: the drift
// (B, C) or 1 for faithful and 0 for unfaithful (A).
func (b *builder) scored(class string, s *scoring.Score, c *report.ClassResult, acc *classAcc, comps *[metric.NumComponents][]float64) (float64, bool) {
	if class == task.ClassA {
		return scoredA(s, c, acc)
	}
	return scoredBC(s, acc, comps)
}

// scoredA accounts for a class A answer: its validity, evidence and the
// judges' votes; its value is 1 when judged faithful, 0 when not, and
// none when no judge decided.
func scoredA(s *scoring.Score, c *report.ClassResult, acc *classAcc) (float64, bool) {
	if s.Answer != nil {
		if !s.Answer.Valid {
			c.Invalid++
		} else {
			acc.evidence = append(acc.evidence, s.Answer.EvidenceResolved)
		}
	}
	j := c.Judging
	faithful, decided := Decision(s.Judge)
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
	acc.t.add(s)
	for i, x := range res.Components.List() {
		comps[i] = append(comps[i], x)
	}
	return res.Drift, true
}

func (b *builder) finishA(c *report.ClassResult, acc *classAcc) {
	if len(acc.values) > 0 {
		c.Faithfulness = ptr(stats.Mean(acc.values))
		faithful := 0
		for _, v := range acc.values {
			if v == 1 {
				faithful++
			}
		}
		c.FaithfulnessInterval = shareInterval(faithful, len(acc.values))
	}
	if len(acc.evidence) > 0 {
		c.EvidenceResolvedMean = ptr(stats.Mean(acc.evidence))
	}
	if acc.agreeable > 0 {
		c.Judging.Agreement = ptr(float64(acc.agreeing) / float64(acc.agreeable))
	}
}

// finishBC adds to a class B or C result, beside its summary (the one
// computation every section shares), what only a class has: the
// component medians, the residual and the count of lossless answers.
func finishBC(c *report.ClassResult, acc *classAcc) {
	if len(acc.values) > 0 {
		c.ComponentMedians = ptr(metric.ComponentsOf(func(i int) float64 { return stats.Median(acc.components[i]) }))
	}
	if len(acc.residuals) > 0 {
		c.ResidualMedian = ptr(stats.Median(acc.residuals))
		c.ResidualP95 = ptr(stats.P95(acc.residuals))
	}
	c.LosslessCount = acc.t.lossless
}

// noise is the headline number of each repeat alone and their range; nil
// for a single repeat.
func noise(perRepeat [][]float64, class string) *report.Noise {
	if len(perRepeat) < 2 {
		return nil
	}
	headline := stats.Median
	if class == task.ClassA {
		headline = stats.Mean
	}
	n := &report.Noise{PerRepeat: make([]*float64, len(perRepeat))}
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
func addCalls(c *report.ClassResult, s *scoring.Score) {
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
func setRepeat(rr *report.RepeatResult, class string, s *scoring.Score, v float64) {
	if class == task.ClassA {
		f := v == 1
		rr.Faithful = &f
		return
	}
	rr.Drift = ptr(v)
	rr.Lossless, rr.Residual = ptr(s.Metric.Lossless), ptr(s.Metric.Residual)
	rr.Unrequested = s.Metric.UnrequestedChanges
	rr.EditApplied = ptr(s.Metric.EditApplied)
	rr.Valid = ptr(s.Metric.Valid && s.Metric.SchemaValid)
}

func addUsage(c *report.ClassResult, s *scoring.Score) {
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

func latency(ms []float64) report.Latency {
	if len(ms) == 0 {
		return report.Latency{}
	}
	return report.Latency{P50: int64(stats.Median(ms)), P95: int64(stats.P95(ms)), Max: int64(stats.Quantile(1, ms))}
}

func ptr[T any](v T) *T { return &v }

// severalFormats reports whether the run's answers are in more than one
// answer format.
func (b *builder) severalFormats() bool {
	first, seen := "", false
	for _, f := range b.format {
		if !seen {
			first, seen = formats.Of(f).Name, true
		} else if formats.Of(f).Name != first {
			return true
		}
	}
	return false
}

// failedCall names one failed answer and why: the classification's reason
// with the status and error_type, else the error's text.
func failedCall(id string, repeat int, e *transcript.CallError) report.FailedCall {
	why := e.Message
	if e.Reason != "" {
		why = e.Reason
		var detail []string
		if e.Status != 0 {
			detail = append(detail, fmt.Sprintf("HTTP %d", e.Status))
		}
		if e.Type != "" {
			detail = append(detail, e.Type)
		} else if e.Code != "" && e.Code != fmt.Sprint(e.Status) {
			detail = append(detail, e.Code)
		}
		if len(detail) > 0 {
			why += " (" + strings.Join(detail, " ") + ")"
		}
	}
	return report.FailedCall{TaskID: id, Repeat: repeat, Scope: e.Scope, Reason: why}
}

// Input is everything a report is built from. Build reads Manifest, Config
// and Scores only (Set, when given, only to place the tasks and size their
// documents), so the same scores give the same report whatever
// transcripts exist.
type Input struct {
	Manifest   *transcript.Manifest
	Config     *config.Config  // thresholds and weights
	Scores     []scoring.Score // every planned (model, task, repeat)
	Set        *task.Set       // the tasks: their places and documents
	RescoredAt *time.Time      // nil for a fresh run
	// Integrity is what protects the run's archive (pipeline.CheckSeal:
	// sealed and verified, or unsealed); "" when not known.
	Integrity string
	// Unpriced are the attempts of unknown cost GET /generation left
	// unpriced (the run's reconciled.json), each with why.
	Unpriced []Unpriced
}

// Unpriced is one attempt a reconcile could not price.
type Unpriced struct {
	Transcript, ID, Why string
}
