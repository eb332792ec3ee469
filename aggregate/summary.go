package aggregate

import (
	"cmp"
	"slices"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
)

// group is the answers of one model to a list of tasks, accumulated as a
// class is (builder.document), so that a class's numbers and a section
// row's are one computation.
type group struct {
	c   *report.ClassResult
	acc classAcc
}

// accumulate reads the answers of model to the tasks ids (each of the
// class classOf gives) into a group.
func (b *builder) accumulate(model string, ids []string, classOf func(id string) string) *group {
	g := &group{c: &report.ClassResult{Summary: report.Summary{Planned: len(ids) * b.repeats}, PerDocument: []report.DocumentResult{}},
		acc: classAcc{perRepeat: make([][]float64, b.repeats)}}
	for _, id := range ids {
		class := classOf(id)
		if class == task.ClassA && g.c.Judging == nil {
			g.c.Judging = &report.Judging{}
		}
		g.c.PerDocument = append(g.c.PerDocument, b.document(model, class, id, g.c, &g.acc))
	}
	g.c.LatencyMS = latency(g.acc.latencies)
	return g
}

// summary is the group's Summary; intervals is unset for the Calls rows,
// which count and cost answers and are no statistic anyone reads an
// interval of.
func (b *builder) summary(g *group, intervals bool) report.Summary {
	c, t, f := g.c, g.acc.t, g.acc.first
	// The counts, tokens, cost and latency the group's answers were
	// accumulated into (builder.document); a class A answer's invalid
	// count is there, a class B or C one's in the tally.
	s := c.Summary
	s.NotRun, s.Invalid, s.FailedToApply, s.CutOff, s.AnswerBytes = t.notRun, c.Invalid+t.invalid, t.failedToApply, t.cutOff, t.answerBytes
	s.Tasks = len(g.acc.values)
	if vals := g.acc.drifts; len(vals) > 0 {
		s.MedianDrift, s.P95Drift, s.MaxDrift = ptr(stats.Median(vals)), ptr(stats.P95(vals)), ptr(stats.Quantile(1, vals))
		if intervals {
			s.MedianInterval, s.P95Interval = quantileInterval(vals, 0.5), quantileInterval(vals, 0.95)
		}
	}
	if f.scored > 0 {
		n := float64(f.scored)
		s.EditsApplied, s.Lossless = ptr(float64(f.applied)/n), ptr(float64(f.lossless)/n)
		s.Unchanged, s.InvalidShare = ptr(float64(f.unchanged)/n), ptr(float64(f.invalid)/n)
		s.EditCompliance = ptr(f.compliance / n)
	}
	if len(t.unrequested) > 0 {
		s.UnrequestedMedian = ptr(stats.Median(t.unrequested))
		s.UnrequestedMax = ptr(int(stats.Quantile(1, t.unrequested)))
	}
	s.FeedbackRounds = t.rounds
	if t.firstTries > 0 {
		n := float64(t.firstTries)
		s.WellFormedFirst, s.AppliedFirst = ptr(float64(t.firstWellFormed)/n), ptr(float64(t.firstApplied)/n)
		s.LosslessFirst = ptr(float64(t.firstLossless) / n)
		if t.scored > 0 {
			s.WellFormedAfter = ptr(float64(t.wellFormed) / float64(t.scored))
		}
	}
	return s
}

// tally counts up a group's class B and C answers as they are scored.
type tally struct {
	scored, notRun, invalid, failedToApply, cutOff int
	applied, lossless, unchanged                   int
	compliance                                     float64 // Σ edit compliance
	answerBytes                                    int64
	unrequested                                    []float64 // per answer that held a document
	// Feedback rounds (scoring.Score.FirstTry, Rounds): the answers whose
	// first try was scored, of them well-formed, with the edit applied and
	// lossless at the first try; the scored answers well-formed in the end;
	// the rounds asked.
	firstTries, firstWellFormed, firstApplied, firstLossless, wellFormed, rounds int
}

func (t *tally) add(s *scoring.Score) {
	t.scored++
	if s.NotRun {
		t.notRun++
	} else {
		t.answerBytes += int64(s.AnswerBytes)
	}
	if s.Metric.EditApplied {
		t.applied++
	}
	t.compliance += s.Metric.EditCompliance
	if n := s.Metric.UnrequestedChanges; n != nil {
		t.unrequested = append(t.unrequested, float64(*n))
		if *n == 0 {
			t.unchanged++
		}
	}
	if s.Metric.Lossless {
		t.lossless++
	}
	if !s.Metric.Valid || !s.Metric.SchemaValid {
		t.invalid++
	}
	if s.ApplyFailure != nil {
		t.failedToApply++
	}
	if s.CutOff != "" {
		t.cutOff++
	}
	if s.WellFormed() {
		t.wellFormed++
	}
	t.addFirst(s)
}

// addFirst counts a scored answer's first try and its feedback rounds.
func (t *tally) addFirst(s *scoring.Score) {
	t.rounds += s.Rounds
	f := s.FirstTry
	if f == nil {
		return
	}
	t.firstTries++
	for _, c := range []struct {
		n  *int
		ok bool
	}{{&t.firstWellFormed, f.WellFormed}, {&t.firstApplied, f.EditApplied}, {&t.firstLossless, f.Lossless}} {
		if c.ok {
			*c.n++
		}
	}
}

// keyFields are the fields a section can group by (suites.Grouping.By):
// how each is read from a score into a key, and how a total row's key
// holds it (nil: the field has no total row).
var keyFields = map[string]struct {
	set   func(k *report.Key, s *scoring.Score)
	total func(k *report.Key)
}{
	suites.ByClass:    {func(k *report.Key, s *scoring.Score) { k.Class = s.Class }, func(k *report.Key) { k.Class = suites.Total }},
	suites.ByRung:     {func(k *report.Key, s *scoring.Score) { k.Rung = s.Rung }, func(k *report.Key) { k.Rung = suites.Total }},
	suites.ByPosition: {func(k *report.Key, s *scoring.Score) { k.Position = s.Position }, func(k *report.Key) { k.Position = suites.Total }},
	suites.ByStep:     {func(k *report.Key, s *scoring.Score) { k.Step = s.Step }, nil},
}

// keyOf is where a score stands, in the fields by (and always the model,
// part and format).
func keyOf(s *scoring.Score, part string, by []string) report.Key {
	k := report.Key{Model: s.Model, Part: part, Format: formatName(s)}
	for _, f := range by {
		if kf, ok := keyFields[f]; ok {
			kf.set(&k, s)
		}
	}
	return k
}

// totalled is k with its field f set to the total's label (a rung over
// its positions).
func totalled(k report.Key, f string) report.Key {
	if kf, ok := keyFields[f]; ok && kf.total != nil {
		kf.total(&k)
	}
	return k
}

// grouping collects the task ids of each key, in plan order.
type grouping struct {
	keys []report.Key
	ids  map[report.Key][]string
	seen map[report.Key]map[string]bool
}

func (gr *grouping) add(k report.Key, id string) {
	if gr.ids == nil {
		gr.ids, gr.seen = map[report.Key][]string{}, map[report.Key]map[string]bool{}
	}
	if gr.seen[k] == nil {
		gr.keys = append(gr.keys, k)
		gr.seen[k] = map[string]bool{}
	}
	if !gr.seen[k][id] {
		gr.seen[k][id] = true
		gr.ids[k] = append(gr.ids[k], id)
	}
}

// summarize groups the scores of part (every score when part is "", as
// the calls are, without their tasks) by model, the fields by and format,
// adds a total row over the field total (when not ""), and summarizes each
// group; rows come in the order the comparison order gives.
func (b *builder) summarize(scores []scoring.Score, part string, by []string, total string, order func(a, b report.Key) int) []report.Row {
	var gr grouping
	classOf := map[string]string{}
	for i := range scores {
		s := &scores[i]
		if part != "" && b.partOf(s) != part {
			continue
		}
		classOf[s.TaskID] = s.Class
		k := keyOf(s, part, by)
		gr.add(k, s.TaskID)
		if total != "" {
			gr.add(totalled(k, total), s.TaskID)
		}
	}
	slices.SortStableFunc(gr.keys, func(x, y report.Key) int {
		return cmp.Or(cmp.Compare(b.modelIndex[x.Model], b.modelIndex[y.Model]), order(x, y),
			cmp.Compare(b.formatIndex[x.Format], b.formatIndex[y.Format]))
	})
	rows := make([]report.Row, 0, len(gr.keys))
	for _, k := range gr.keys {
		// Tasks in plan order, whatever order the scores came in.
		slices.SortFunc(gr.ids[k], func(x, y string) int {
			return cmp.Or(cmp.Compare(b.taskIndex(x), b.taskIndex(y)), cmp.Compare(x, y))
		})
		g := b.accumulate(k.Model, gr.ids[k], func(id string) string { return classOf[id] })
		row := report.Row{Key: k, Summary: b.summary(g, part != "")} // the calls: counts and costs, no intervals
		row.DocumentBytes, row.Total = b.documentBytes(gr.ids[k]), isTotal(k)
		if part != "" {
			row.WholeBytes, row.WholeTokens = b.wholeSize(k, gr.ids[k])
		}
		if !row.Total && part != "" {
			row.PerDocument = g.c.PerDocument
		}
		rows = append(rows, row)
	}
	return rows
}

// taskIndex is a task's place in the run's plan; a task the plan does
// not name comes after every one it does.
func (b *builder) taskIndex(id string) int {
	if i, ok := b.plan[id]; ok {
		return i
	}
	return len(b.plan)
}

// isTotal reports whether k is a total row's key.
func isTotal(k report.Key) bool {
	return k.Class == suites.Total || k.Rung == suites.Total || k.Position == suites.Total
}

// documentBytes is the size of the largest source document of the tasks
// ids; 0 without the task set.
func (b *builder) documentBytes(ids []string) int {
	n := 0
	if b.set == nil {
		return 0
	}
	for _, id := range ids {
		if t := b.set.Task(id); t != nil && t.Source != nil {
			n = max(n, len(t.Source.Bytes))
		}
	}
	return n
}

// section is the rows of one part of the run, as the suite table says
// its section groups them.
func (b *builder) section(part string, sec *suites.Grouping, multi bool) report.Section {
	out := report.Section{Part: part, Title: sec.Title, Note: sec.Note, Formats: multi, Chart: sec.Chart, Limits: sec.Limits}
	for _, c := range sec.Columns {
		out.Heads = append(out.Heads, c.Head)
	}
	out.Rows = b.summarize(b.scores, part, sec.By, sec.Total, sec.Order)
	for i := range out.Rows {
		for _, c := range sec.Columns {
			out.Rows[i].Labels = append(out.Rows[i].Labels, c.Text(out.Rows[i].Key))
		}
	}
	if slices.Contains(sec.By, suites.ByStep) {
		out.Breaks = b.breaks(part)
	}
	if sec.Reconstruction {
		out.Delegation = b.delegation(part)
	}
	return out
}
