package aggregate

import (
	"fmt"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/verdict"
)

// eligibility is whether a report's run can gate v0.1 (verdict.Eligible),
// from the facts the report and its input hold.
func eligibility(r *report.Report, in Input) verdict.Eligibility {
	f := verdict.Facts{
		Gates: !r.Informational(), Suite: r.Suite, Models: r.Models, ConfiguredModels: in.Manifest.Inputs.ConfiguredModels,
		StaleMetric: staleMetric(in), Formats: r.Formats, BaseURL: in.Manifest.Inputs.BaseURL,
	}
	if r.Partial != nil {
		f.Partial = fmt.Sprintf("%s", r.Partial)
	}
	for _, c := range r.Custom {
		f.Custom = append(f.Custom, c.Key)
	}
	f.ServedOther, f.ServedExample, f.ServedIDAlone = servedOther(in)
	f.JudgeServedOther, f.JudgeServedExample, f.JudgeServedSelf, f.JudgeServedIDAlone = judgeServedOther(in)
	for _, fl := range r.Failures {
		if fl.Metric == verdict.MetricIncomplete {
			f.Incomplete = append(f.Incomplete, fl.Message)
		}
	}
	return verdict.Eligible(in.Config.Gating, f)
}

// servedOther counts the answers another model than the one asked for
// served (scoring.Score.ModelServed), names the first, and says whether
// any of them was checked on the asked id alone (no canonical slug
// recorded for its model).
func servedOther(in Input) (int, string, bool) {
	n, ex, alone := 0, "", false
	canonical := in.Manifest.CanonicalSlugs()
	for _, s := range in.Scores {
		if s.ModelServed != "" {
			if n == 0 {
				ex = s.ModelServed + " for " + s.Model
			}
			n++
			alone = alone || canonical[s.Model] == ""
		}
	}
	return n, ex, alone
}

// judgeServedOther counts the class A judge votes another model than the
// judge asked for served (judge.Vote.ModelServed), names the first ("x
// for judge j on m's answer"), counts those the answering model itself
// served (read against its canonical slug too), and says whether any of
// them was checked on the asked id alone (no canonical slug recorded for
// its judge).
func judgeServedOther(in Input) (n int, ex string, self int, alone bool) {
	canonical := in.Manifest.CanonicalSlugs()
	for _, s := range in.Scores {
		if s.Judge == nil {
			continue
		}
		for _, v := range s.Judge.Votes {
			if v.ModelServed == "" {
				continue
			}
			if n == 0 {
				ex = v.ModelServed + " for judge " + v.Judge + " on " + s.Model + "'s answer"
			}
			n++
			if model.ServedAsAsked(s.Model, canonical[s.Model], v.ModelServed) {
				self++
			}
			alone = alone || canonical[v.Judge] == ""
		}
	}
	return n, ex, self, alone
}

// staleMetric reports whether some score was computed by another metric
// version than the current one.
func staleMetric(in Input) bool {
	for _, s := range in.Scores {
		if s.Metric != nil && s.Metric.MetricVersion != metric.Version {
			return true
		}
	}
	return false
}

// ReadingOf is §8.5's reading of a report whose results and eligibility
// are set, with the margins m: what Build computes, for a caller that
// makes results without scores (the operating characteristics'
// simulation, package sensitivity).
func ReadingOf(r *report.Report, m config.Reading) verdict.Reading { return readingOf(r, m) }

// readingOf is §8.5's reading of a report whose results, failures and
// eligibility are known, with the margins m: its measures handed to
// verdict.Read.
func readingOf(r *report.Report, m config.Reading) verdict.Reading {
	return verdict.Read(r.Checks(), measuredModels(r), r.Eligibility, m)
}

// measuredModels are the measures of each model of a report: its gated
// statistics, its class B and C tails and what makes it incomplete.
func measuredModels(r *report.Report) []verdict.Measured {
	ts := r.Checks()
	var models []verdict.Measured
	for _, model := range r.Models {
		mr := r.Results[model]
		ms := verdict.Measured{Model: model, Incomplete: r.Incomplete(model)}
		ms.FailedCalls, ms.FirstAPIError = requestFailures(mr), firstAPIError(mr)
		for _, t := range ts {
			ms.Measures = append(ms.Measures, measure(r, mr, t))
		}
		for _, cl := range []struct {
			class string
			limit float64
		}{{"B", r.Thresholds.ClassBP95Max}, {"C", r.Thresholds.ClassCP95Max}} {
			c := mr.Class(cl.class)
			if c == nil {
				continue
			}
			tail := verdict.Tail{Class: cl.class, Limit: cl.limit, Documents: c.Tasks}
			for _, d := range c.PerDocument {
				tail.Drifts = append(tail.Drifts, d.Drift)
			}
			ms.Tails = append(ms.Tails, tail)
		}
		models = append(models, ms)
	}
	return models
}

// measure reads the statistic a threshold is on from a model's results:
// its value and interval, each document's own value and, with two
// repeats or more, its value over each repeat's answers alone.
func measure(r *report.Report, mr *report.ModelResult, t verdict.Threshold) verdict.Measure {
	class := mr.Class(t.Class)
	if class == nil {
		return verdict.Measure{NotSelected: r.Partial != nil, NoClass: true}
	}
	s := gateStats[t.Stat]
	ms := verdict.Measure{Value: mr.Gated(t), Interval: mr.GatedInterval(t), Invalid: class.Invalid, Scored: class.Scored}
	for _, d := range class.PerDocument {
		ms.Documents = append(ms.Documents, verdict.Document{TaskID: d.TaskID, Value: s.document(d)})
	}
	if r.Repeats >= 2 {
		ms.PerRepeat = make([]*float64, r.Repeats)
		for i := range r.Repeats {
			ms.PerRepeat[i] = s.repeat(class.PerDocument, i)
		}
	}
	return ms
}
