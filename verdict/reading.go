package verdict

import (
	"fmt"
	"math"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/unit"
)

// The outcomes of §8.5's reading (Reading.Outcome).
const (
	// ReadingPass: the run can gate v0.1 and §8.5's five thresholds hold
	// for every model: v0.1 may be called final (§8.5), unless a harness
	// gate (†) fails the §8.7 verdict (Reading.Harness).
	ReadingPass = "pass"
	// ReadingWeakness: the run can gate; exactly one model fails §8.5's
	// thresholds, every one of its failures is narrow, and the other two
	// pass them cleanly: "a model-specific weakness, not a protocol
	// failure" (§8.5).
	ReadingWeakness = "model-specific weakness"
	// ReadingProtocolFailure: the run can gate and §8.5's thresholds fail
	// otherwise: "the protocol direction is reconsidered" (§8.5). The
	// harness's own gates never lead here.
	ReadingProtocolFailure = "protocol failure"
	// ReadingInconclusive: the run cannot gate v0.1 (§8.6), or it is
	// incomplete: its numbers decide nothing.
	ReadingInconclusive = "inconclusive"
)

// What §8.5 concludes of each outcome, in its words.
var readingSays = map[string]string{
	ReadingPass:            "v0.1 may be called final (§8.5)",
	ReadingWeakness:        "not a protocol failure (§8.5)",
	ReadingProtocolFailure: "the protocol direction is reconsidered (§8.5)",
	ReadingInconclusive:    "this run cannot gate v0.1 (§8.6): its numbers are information",
}

// Reading is §8.5's reading of a run: not a bare pass or fail, but
// whether a failure is the protocol's or one model's, with the margin,
// the interval and the documents that decide each number. It weighs
// §8.5's five thresholds alone; the harness's own gates (†) fail the §8.7
// verdict and are read on their own line (Harness).
type Reading struct {
	// Outcome is ReadingPass, ReadingWeakness, ReadingProtocolFailure or
	// ReadingInconclusive.
	Outcome string `json:"outcome"`
	// Says is what §8.5 (or §8.6) concludes of the outcome.
	Says string `json:"says"`
	// Why says in a sentence what decided the outcome.
	Why string `json:"why"`
	// NarrowFraction and NarrowShare are the margins the reading used
	// (config.Reading): of a median, and of faithfulness. A P95's margin
	// is one document (NarrowDocuments).
	NarrowFraction float64 `json:"narrow_fraction"`
	NarrowShare    float64 `json:"narrow_share"`
	// Models are each model's standing, in the run's order.
	Models []ModelReading `json:"models"`
	// Harness says, per model failing one, which of the harness's own
	// gates (†) it fails: they fail the §8.7 verdict, but not §8.5's
	// reading. Empty when none fails.
	Harness []string `json:"harness"`
}

// NarrowDocuments is a P95's narrow margin, in documents: a P95 fails
// narrowly when at most this many documents more than it allows are over
// its limit (at 20 documents, which allow one: 2 over). A P95 that holds
// passes cleanly: its allowance (one document in 20) is the tolerance
// §8.5 built into it, and by the 19th value's spare a single invalid
// answer (drift 1) elsewhere made a model "not clean".
const NarrowDocuments = 1

// The standings of a model (ModelReading.Standing).
const (
	StandingClean    = "passes cleanly"
	StandingPasses   = "passes"
	StandingNarrow   = "fails narrowly"
	StandingFails    = "fails clearly"
	StandingUnproven = "not measured"
)

// ModelReading is one model's standing against every threshold.
type ModelReading struct {
	Model string `json:"model"`
	// Standing is, on §8.5's five thresholds, StandingClean (every one
	// holds with the margin to spare), StandingPasses (every one holds,
	// some by less), StandingNarrow (every failure within the margin),
	// StandingFails (a failure beyond it) or StandingUnproven (a threshold
	// not measured).
	Standing string `json:"standing"`
	// Checks are the thresholds, in the order of Table: §8.5's
	// five, which decide the standing, then the harness's own.
	Checks []Check `json:"checks"`
	// Bounds say, per class B or C, what its documents over the P95
	// limit support: "class B: 0 of 20 documents over the P95 limit 0.2:
	// the share of such documents over it may still be up to 16.8%".
	Bounds []string `json:"bounds,omitempty"`
	// Harness lists the harness's own gates (†) the model fails, as their
	// check texts.
	Harness []string `json:"harness,omitempty"`
}

// Check is one threshold of one model, as the reading weighs it.
type Check struct {
	Metric string `json:"metric"`
	Label  string `json:"label"`
	// Source is "§8.5", SourceHarness or SourceCustom (Threshold.Source).
	Source string  `json:"source"`
	Op     string  `json:"op"`
	Limit  float64 `json:"limit"`
	// Value and Interval are the statistic and its exact interval (see
	// Interval); null when not measured or not selected.
	Value    *float64  `json:"value"`
	Interval *Interval `json:"interval,omitempty"`
	// Over is, for a P95, the documents over the limit, which decide it.
	Over *Over `json:"over,omitempty"`
	// Margin is the narrow margin of this threshold (config.Reading; in
	// documents for a P95, NarrowDocuments).
	Margin float64 `json:"margin"`
	// Holds, Narrow and Clean: the threshold holds; it fails by at most
	// the margin; it holds with at least the margin to spare.
	Holds  bool `json:"holds"`
	Narrow bool `json:"narrow"`
	Clean  bool `json:"clean"`
	// WithinNoise is set when the data cannot tell on which side of the
	// limit the model's true value lies: the interval holds the limit (for
	// a P95, the interval of the share of documents over it holds 5%).
	WithinNoise bool `json:"within_noise"`
	// PerRepeat is, with two repeats or more, the statistic over each
	// repeat's answers alone (one per document), and Spread their max −
	// min: how far it moves from run to run.
	PerRepeat []*float64 `json:"per_repeat,omitempty"`
	Spread    *float64   `json:"spread,omitempty"`
	// Deciding are the documents whose own value falls short of the
	// limit (over a drift limit, under a share's), by task id: the
	// documents that decide a P95 or a failure.
	Deciding []string `json:"deciding"`
	// NotSelected is set when the run's selection left out the class: the
	// threshold was not run, which is no failure.
	NotSelected bool `json:"not_selected,omitempty"`
	// Text is the check in one line, e.g. "class C P95 drift 0.398
	// [0.31, 0.44] > 0.3 by 0.098 (narrow within 0.06: no): 17-c, 20-c
	// over".
	Text string `json:"text"`
}

// Over is the documents over a P95's limit: P95 ≤ L holds exactly when at
// most Allowed of the Of documents are over L (at 20, one), and for the
// population, when at most 5% of such documents are.
type Over struct {
	Over    int `json:"over"`
	Of      int `json:"of"`
	Allowed int `json:"allowed"`
	// Share is the Clopper–Pearson 95% interval of the share of such
	// documents over the limit.
	Share *Interval `json:"share"`
	// FailDecisiveFrom is the fewest documents over with which the
	// interval excludes 5% from below (a fail the data decide), 0 when no
	// count of Of does; PassDecisive is set when 0 over excludes it from
	// above (a pass the data decide: 72 documents or more).
	FailDecisiveFrom int  `json:"fail_decisive_from"`
	PassDecisive     bool `json:"pass_decisive"`
}

// gateShare is the share of documents a P95 allows over its limit.
const gateShare = 0.05

// overOf counts the documents over a P95's limit and what that count
// supports.
func overOf(over, of int) *Over {
	o := &Over{Over: over, Of: of, Allowed: stats.Allowed(0.95, of), Share: ShareInterval(over, of)}
	for m := 0; m <= of; m++ {
		if stats.ShareBound(m, of, stats.Level).Low > gateShare {
			o.FailDecisiveFrom = m
			break
		}
	}
	o.PassDecisive = stats.ShareBound(0, of, stats.Level).High < gateShare
	return o
}

// Measured is one model's measures: one per threshold, in the order of
// the thresholds read, its class B and C drifts for Bounds, and what
// makes its run incomplete (Failures).
type Measured struct {
	Model    string
	Measures []Measure
	Tails    []Tail
	// Incomplete counts its missing and failed answers and votes.
	Incomplete Incomplete
	// FailedCalls are its answers that failed for their own request, in
	// class, task and repeat order; FirstAPIError is the text of its
	// first API error, by class.
	FailedCalls   []FailedCall
	FirstAPIError string
}

// Measure is one gated statistic of one model's class, as plain numbers.
type Measure struct {
	// NotSelected is set when the run's selection left out the class;
	// NoClass when the run has no task of it.
	NotSelected bool
	NoClass     bool
	// Invalid and Scored count the class's invalid answers of those
	// scored (a class A failure says how many could not be judged).
	Invalid, Scored int
	// Value and Interval are the statistic and its exact interval; Value
	// is nil when not measured.
	Value    *float64
	Interval *Interval
	// Documents are each document's own value of the statistic (nil
	// when it has none), in the class's order.
	Documents []Document
	// PerRepeat is, with two repeats or more, the statistic over each
	// repeat's answers alone; nil otherwise.
	PerRepeat []*float64
}

// Document is one document's own value of a gated statistic.
type Document struct {
	TaskID string
	Value  *float64
}

// Tail is what Bounds reads of a class B or C: its P95 limit, each
// document's drift and how many documents were measured.
type Tail struct {
	Class     string
	Limit     float64
	Drifts    []*float64
	Documents int
}

// Read is §8.5's reading of a run: each model's measures against the
// thresholds ts, with the run's eligibility and the margins m.
func Read(ts []Threshold, models []Measured, el Eligibility, m config.Reading) Reading {
	rd := Reading{NarrowFraction: m.NarrowFraction, NarrowShare: m.NarrowShare}
	rd.Harness = []string{}
	for _, ms := range models {
		model := ms.Model
		mr := modelReading(ts, ms, m)
		rd.Models = append(rd.Models, mr)
		if len(mr.Harness) > 0 {
			rd.Harness = append(rd.Harness, fmt.Sprintf("harness gates (†): %s fails %s", model, strings.Join(mr.Harness, "; ")))
		}
	}
	rd.Outcome, rd.Why = outcome(el, rd.Models)
	rd.Says = readingSays[rd.Outcome]
	if len(rd.Harness) > 0 && rd.Outcome != ReadingInconclusive {
		rd.Says += "; the harness's own gates (†) fail, so the §8.7 verdict is fail"
	}
	return rd
}

// outcome decides the reading from the models' standings.
func outcome(el Eligibility, models []ModelReading) (string, string) {
	if n := len(el.Reasons); !el.Gates {
		return ReadingInconclusive, fmt.Sprintf("the run cannot gate v0.1, for %d %s (eligibility)", n, unit.Plural(n, "reason", "reasons"))
	}
	var failing, clean []string
	narrow := true
	for _, m := range models {
		switch m.Standing {
		case StandingClean:
			clean = append(clean, m.Model)
		case StandingPasses:
		case StandingNarrow:
			failing = append(failing, m.Model)
		default:
			failing, narrow = append(failing, m.Model), false
		}
	}
	switch {
	case len(failing) == 0:
		return ReadingPass, "§8.5's five thresholds hold for every model"
	case len(failing) == 1 && narrow && len(clean) == len(models)-1:
		return ReadingWeakness, fmt.Sprintf("%s alone fails, every failure within its margin (%s), and %s %s cleanly",
			failing[0], strings.Join(failingLabels(models, failing[0]), "; "), strings.Join(clean, " and "), unit.Plural(len(clean), "passes", "pass"))
	case len(failing) == 1 && narrow:
		return ReadingProtocolFailure, fmt.Sprintf("%s fails narrowly, but not every other model passes §8.5's thresholds cleanly (with the margin to spare)", failing[0])
	case len(failing) == 1:
		return ReadingProtocolFailure, fmt.Sprintf("%s fails beyond the narrow margin (%s)", failing[0], strings.Join(failingLabels(models, failing[0]), "; "))
	}
	return ReadingProtocolFailure, fmt.Sprintf("%d models fail: %s", len(failing), strings.Join(failing, ", "))
}

// failingLabels are one model's failing checks as their texts.
func failingLabels(models []ModelReading, model string) []string {
	var out []string
	for _, m := range models {
		if m.Model != model {
			continue
		}
		for _, c := range m.Checks {
			if !c.Holds && !c.NotSelected && c.Source != SourceHarness {
				out = append(out, c.Text)
			}
		}
	}
	return out
}

// modelReading weighs every threshold of one model: §8.5's five decide
// its standing; the harness's own that fail are listed apart.
func modelReading(ts []Threshold, ms Measured, m config.Reading) ModelReading {
	out := ModelReading{Model: ms.Model, Standing: StandingClean}
	for i, t := range ts {
		c := check(t, ms.Measures[i], m)
		out.Checks = append(out.Checks, c)
		if t.Own {
			if !c.Holds {
				out.Harness = append(out.Harness, c.Text)
			}
			continue
		}
		switch {
		case c.NotSelected || c.Clean:
		case c.Value == nil:
			out.Standing = StandingUnproven
		case c.Holds:
			if out.Standing == StandingClean {
				out.Standing = StandingPasses
			}
		case c.Narrow:
			if out.Standing == StandingClean || out.Standing == StandingPasses {
				out.Standing = StandingNarrow
			}
		default:
			if out.Standing != StandingUnproven {
				out.Standing = StandingFails
			}
		}
	}
	out.Bounds = bounds(ms.Tails)
	return out
}

// check weighs one threshold of one model: its value and interval, how
// far it is from the limit against the margin (for a P95, in documents
// over it), the deciding documents and its spread over repeats.
func check(t Threshold, ms Measure, m config.Reading) Check {
	c := Check{Metric: t.Metric, Label: t.Label, Source: t.Source(), Op: t.Op, Limit: t.Limit, Deciding: []string{}}
	// Rounded, so that 0.2 × 0.05 is 0.01 in the report, not
	// 0.010000000000000002.
	c.Margin = math.Round(m.NarrowFraction*t.Limit*1e12) / 1e12
	if t.Share() {
		c.Margin = m.NarrowShare
	}
	if ms.NotSelected {
		c.NotSelected, c.Holds, c.Clean = true, true, true
		c.Text = t.Label + ": not selected"
		return c
	}
	c.Value, c.Interval = ms.Value, ms.Interval
	if c.Value == nil {
		c.Text = t.Label + ": not measured"
		return c
	}
	// spare is how far the value is inside the limit (negative: the miss).
	spare := t.Limit - *c.Value
	if t.Op == ">=" {
		spare = *c.Value - t.Limit
	}
	const eps = 1e-12 // a value at the margin's edge counts as on it
	c.Holds = t.Holds(c.Value)
	c.Narrow = !c.Holds && -spare <= c.Margin+eps
	c.Clean = c.Holds && spare >= c.Margin-eps
	if iv := c.Interval; iv != nil {
		c.WithinNoise = iv.Low <= t.Limit && t.Limit <= iv.High
	}
	of := 0
	for _, d := range ms.Documents {
		v := d.Value
		if v != nil && !t.Holds(v) {
			c.Deciding = append(c.Deciding, d.TaskID)
		}
		if v != nil {
			of++
		}
	}
	if t.Count() && of > 0 {
		// A P95 is a count: it holds exactly when at most Allowed
		// documents are over its limit, so its margin and its noise are
		// read in documents over.
		c.Over = overOf(len(c.Deciding), of)
		c.Margin = NarrowDocuments
		excess := c.Over.Over - c.Over.Allowed
		c.Narrow = !c.Holds && excess <= NarrowDocuments
		c.Clean = c.Holds
		c.WithinNoise = c.Over.Share.Low <= gateShare && gateShare <= c.Over.Share.High
	}
	c.PerRepeat, c.Spread = spreadOf(ms.PerRepeat)
	c.Text = checkText(t, c, spare)
	return c
}

// spreadOf is a statistic over each repeat's answers alone and their max
// − min; nil for fewer than two repeats (per is nil).
func spreadOf(per []*float64) ([]*float64, *float64) {
	if per == nil {
		return nil, nil
	}
	lo, hi, any := 0.0, 0.0, false
	for _, v := range per {
		if v == nil {
			continue
		}
		if !any || *v < lo {
			lo = *v
		}
		if !any || *v > hi {
			hi = *v
		}
		any = true
	}
	if !any {
		return per, nil
	}
	spread := hi - lo
	return per, &spread
}

// maxNamed is the most deciding documents a check's text names; more are
// counted (Check.Deciding holds them all).
const maxNamed = 6

// checkText is a check in one line: the value and its interval against
// the limit, by how much, and the documents that fall short.
func checkText(t Threshold, c Check, spare float64) string {
	show := unit.Num
	if t.Share() {
		show = unit.Percent
	}
	text := fmt.Sprintf("%s %s", t.Label, show(*c.Value))
	if iv := c.Interval; iv != nil {
		text += " " + IntervalText(iv, show)
	}
	switch {
	case c.Over != nil && c.Holds:
		text += fmt.Sprintf(" %s %s: %s", unit.OpSymbol(t.Op), show(t.Limit), overText(c.Over, show(t.Limit)))
	case c.Over != nil:
		text += fmt.Sprintf(" misses %s %s: %s", unit.OpSymbol(t.Op), show(t.Limit), overText(c.Over, show(t.Limit)))
		if c.Narrow {
			text += ", a narrow failure (one document too many)"
		} else {
			text += ", beyond the narrow margin of one document"
		}
	case c.Clean:
		text += fmt.Sprintf(" %s %s", unit.OpSymbol(t.Op), show(t.Limit))
	case c.Holds:
		text += fmt.Sprintf(" %s %s, with less than the margin %s to spare", unit.OpSymbol(t.Op), show(t.Limit), show(c.Margin))
	case c.Narrow:
		text += fmt.Sprintf(" misses %s %s by %s, within the narrow margin %s", unit.OpSymbol(t.Op), show(t.Limit), show(-spare), show(c.Margin))
	default:
		text += fmt.Sprintf(" misses %s %s by %s, beyond the narrow margin %s", unit.OpSymbol(t.Op), show(t.Limit), show(-spare), show(c.Margin))
	}
	if c.WithinNoise && c.Over == nil {
		text += ", the interval holds the limit"
	}
	if c.Spread != nil {
		text += fmt.Sprintf("; across %d repeats %s", len(c.PerRepeat), spreadText(c.PerRepeat, show))
	}
	side := "over"
	if t.Op == ">=" {
		side = "under"
	}
	switch n := len(c.Deciding); {
	case n > 0 && c.Holds:
		// A held check never "falls short" (issue 46): a P95 or a share
		// holds with a few documents on the wrong side of the limit.
		text += fmt.Sprintf("; %s %s the limit, which the threshold allows", namedDocuments(c.Deciding), unit.Plural(n, "is "+side, "are "+side))
	case n > 0:
		text += fmt.Sprintf(": %s %s", namedDocuments(c.Deciding), unit.Plural(n, "falls short", "fall short"))
	}
	return text
}

// namedDocuments names documents, or counts them when there are more than
// maxNamed.
func namedDocuments(ids []string) string {
	if len(ids) > maxNamed {
		return fmt.Sprintf("%d documents", len(ids))
	}
	return strings.Join(ids, ", ")
}

// overText is a P95's count over its limit and what the count supports:
// "2 of 20 documents over 0.2 (1 allowed; share over 1.2%–31.7%, within
// noise)".
func overText(o *Over, limit string) string {
	text := fmt.Sprintf("%d of %d documents over %s (%d allowed; share over %s–%s, Clopper–Pearson 95%%", o.Over, o.Of, limit, o.Allowed,
		unit.Percent(o.Share.Low), unit.Percent(o.Share.High))
	switch {
	case o.Share.Low > gateShare:
		text += ": above 5%, a decisive fail"
	case o.Share.High < gateShare:
		text += ": below 5%, a decisive pass"
	default:
		text += ", within noise of 5%"
	}
	return text + ")"
}

// decisiveText says when the P95 threshold fails (from Allowed + 1 over)
// and what of that the interval can tell from noise: with 20 documents
// the threshold fails from 2 over, a fail beyond noise needs 4, and no
// count shows a pass beyond noise. Issue 56: "20 documents can decide a
// fail (from 4 over)" read as if 2 or 3 over passed, beside a P95 that
// failed with 2.
func decisiveText(o *Over) string {
	fails := fmt.Sprintf("the P95 fails from %d over (%d allowed)", o.Allowed+1, o.Allowed)
	switch {
	case o.PassDecisive && o.FailDecisiveFrom > 0:
		return fmt.Sprintf("%s; beyond noise, a fail from %d over and a pass at 0", fails, o.FailDecisiveFrom)
	case o.PassDecisive:
		return fmt.Sprintf("%s; beyond noise, a pass at 0 over", fails)
	case o.FailDecisiveFrom > 0:
		return fmt.Sprintf("%s, a fail beyond noise (the interval above 5%%) from %d over; no count of %d %s shows a pass beyond noise", fails, o.FailDecisiveFrom, o.Of, unit.Plural(o.Of, "document", "documents"))
	}
	return fmt.Sprintf("%s; no count of %d %s shows a pass or a fail beyond noise", fails, o.Of, unit.Plural(o.Of, "document", "documents"))
}

// spreadText is a statistic's value per repeat, "0.12–0.19".
func spreadText(per []*float64, show func(float64) string) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range per {
		if v != nil {
			lo, hi = math.Min(lo, *v), math.Max(hi, *v)
		}
	}
	return show(lo) + "–" + show(hi)
}

// bounds say, per class B or C, what its count of documents over the
// P95 limit supports: the Clopper–Pearson interval of the share of such
// documents over it, and which verdicts this many documents can decide
// (decisiveText).
func bounds(tails []Tail) []string {
	var out []string
	for _, cl := range tails {
		if cl.Documents == 0 {
			continue
		}
		over := 0
		for _, d := range cl.Drifts {
			if d != nil && *d > cl.Limit {
				over++
			}
		}
		o := overOf(over, cl.Documents)
		text := fmt.Sprintf("class %s: %d of %d documents over the P95 limit %s: the share of such documents over it is %s–%s (Clopper–Pearson 95%%)",
			cl.Class, over, cl.Documents, unit.Num(cl.Limit), unit.Percent(o.Share.Low), unit.Percent(o.Share.High))
		text += "; " + decisiveText(o)
		out = append(out, text)
	}
	return out
}
