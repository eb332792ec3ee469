package report

import (
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/stats"
)

// tally counts up a group of class B and C answers: the one summary every
// section is made from (a class, a size rung and position, a relay step),
// so that a number means the same in every section.
type tally struct {
	planned, scored, missing, apiErrors, notRun, invalid, cutOff int
	applied, lossless, unchanged                                 int
	compliance                                                   float64 // Σ edit compliance
	outputTokens                                                 int64
	estimated                                                    bool // some token counts are estimates
	cost                                                         float64
	costUnknown                                                  int
	drifts                                                       []float64
	unrequested                                                  []float64 // per answer that held a document
	// Feedback rounds (scoring.Score.FirstTry, Rounds): the answers whose
	// first try was scored, of them well-formed, with the edit applied and
	// lossless at the first try; the scored answers well-formed in the end;
	// the rounds asked.
	firstTries, firstWellFormed, firstApplied, firstLossless, wellFormed, rounds int
}

// tallyOf counts up ss. A missing answer counts only as missing; an API
// error is counted with its cost; a scored answer's metric result is read
// (a not-run relay step is scored, as drift 1).
func tallyOf(ss []*scoring.Score) tally {
	t := tally{planned: len(ss)}
	for _, s := range ss {
		switch s.Status {
		case scoring.StatusMissing:
			t.missing++
			continue
		case scoring.StatusAPIError:
			t.apiErrors++
		}
		if s.Usage.Cost == nil {
			t.costUnknown++
		} else {
			t.cost += *s.Usage.Cost
		}
		if s.NotRun {
			t.notRun++
		}
		t.addFirst(s)
		if d, ok := s.Drift(); ok {
			t.add(s, d)
		}
	}
	return t
}

func (t *tally) add(s *scoring.Score, d float64) {
	t.scored++
	t.outputTokens += s.Usage.CompletionTokens
	t.estimated = t.estimated || s.Usage.Estimated
	t.drifts = append(t.drifts, d)
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
	if s.CutOff != "" {
		t.cutOff++
	}
	if s.WellFormed() {
		t.wellFormed++
	}
}

// addFirst counts a score's first try and its feedback rounds.
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

// firstShares are the shares of first tries well-formed, with the edit
// applied and lossless, and the share of scored answers well-formed after
// the feedback rounds; all nil without a first try (a run without
// feedback rounds).
func (t tally) firstShares() (wellFormed, applied, lossless, after *float64) {
	if t.firstTries == 0 {
		return nil, nil, nil, nil
	}
	n := float64(t.firstTries)
	wellFormed, applied, lossless = ptr(float64(t.firstWellFormed)/n), ptr(float64(t.firstApplied)/n), ptr(float64(t.firstLossless)/n)
	if t.scored > 0 {
		after = ptr(float64(t.wellFormed) / float64(t.scored))
	}
	return wellFormed, applied, lossless, after
}

// medianP95 are the median and P95 drift; nil when nothing was scored.
func (t tally) medianP95() (*float64, *float64) {
	if len(t.drifts) == 0 {
		return nil, nil
	}
	return ptr(stats.Median(t.drifts)), ptr(stats.P95(t.drifts))
}

// shares are the shares of scored answers whose edit was applied and that
// are lossless; nil when nothing was scored.
func (t tally) shares() (applied, lossless *float64) {
	if t.scored == 0 {
		return nil, nil
	}
	n := float64(t.scored)
	return ptr(float64(t.applied) / n), ptr(float64(t.lossless) / n)
}
