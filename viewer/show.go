package viewer

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/unit"
)

// WriteTranscript writes one scored transcript as a person reads it in a
// terminal (harness show): what was asked, the status and numbers, the
// cost, the instruction, the expected → produced diff (classes B and C) or
// the answer (class A), the edit operations, the diagnostics and the judge
// votes, and the call's attempts when it was retried or interrupted. It
// shows what the viewer shows of the transcript, as text. t may
// be nil (the instruction and the expected document are then not shown),
// and answer's transcript nil (no output is shown).
func WriteTranscript(w io.Writer, s scoring.Score, t *task.Task, answer scoring.Output) error {
	bw := bufio.NewWriter(w)
	v := newTranscriptView(aggregate.AnswerOf(&s), s, t, answer)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	showHeader(p, s, v)
	if v.Instruction != "" {
		p("\nInstruction\n%s", indent(v.Instruction))
	}
	if v.Reference != "" {
		p("\nReference answer\n%s", indent(v.Reference))
	}
	showOutput(p, v)
	showFindings(p, v)
	showAttempts(p, v)
	return bw.Flush()
}

// showAttempts prints a call's attempts (Output.Attempts), when it was
// retried or interrupted.
func showAttempts(p printer, v transcriptView) {
	if len(v.Attempts) == 0 {
		return
	}
	p("\nAttempts\n")
	for _, a := range v.Attempts {
		p("  %s\n", a)
	}
}

// attemptLines are a call's HTTP attempts as lines (Output.Attempts), when
// there is more than one or one did not simply succeed (an error, an
// interrupted stream, a served model or generation id that changed
// mid-stream): what was retried, after how long, which generation
// each was (what `harness runs --reconcile` prices) and what each cost.
// A call answered at its first attempt has none: the attempt count says
// it.
func attemptLines(attempts []transcript.Attempt) []string {
	if len(attempts) == 0 || len(attempts) == 1 && attempts[0].Error == "" && !attempts[0].Interrupted && len(attempts[0].Changed) == 0 {
		return nil
	}
	var out []string
	for _, a := range attempts {
		parts := []string{strconv.Itoa(a.Number)}
		if a.Status != 0 {
			parts = append(parts, "HTTP "+strconv.Itoa(a.Status))
		}
		if a.DurationMS > 0 {
			parts = append(parts, fmt.Sprintf("%d ms", a.DurationMS))
		}
		if a.Interrupted {
			parts = append(parts, "interrupted (may have been billed for what it generated)")
		}
		if a.GenerationID != "" {
			parts = append(parts, a.GenerationID)
		}
		if a.Provider != "" {
			parts = append(parts, "provider "+a.Provider)
		}
		if a.Cost != nil {
			parts = append(parts, fmt.Sprintf("$%.4f", *a.Cost))
		}
		if a.RetryAfterMS > 0 {
			parts = append(parts, fmt.Sprintf("retry after %d ms", a.RetryAfterMS))
		}
		if a.WaitMS > 0 {
			parts = append(parts, fmt.Sprintf("waited %d ms before it", a.WaitMS))
		}
		if len(a.Changed) > 0 {
			c, _ := clip(oneLine(strings.Join(a.Changed, ", ")), maxItemText)
			parts = append(parts, "changed mid-stream: "+c+" (the first chunk's are kept)")
		}
		if a.Error != "" {
			e, _ := clip(oneLine(a.Error), maxItemText)
			parts = append(parts, "error: "+e)
		}
		out = append(out, strings.Join(parts, " · "))
	}
	return out
}

// printer prints a formatted line part.
type printer func(format string, args ...any)

// showHeader prints the transcript's task, model, status and cost.
func showHeader(p printer, s scoring.Score, v transcriptView) {
	p("%s r%d · %s · class %s · %s\n", s.TaskID, s.Repeat, s.Model, s.Class, s.Document)
	if s.Transcript != "" {
		p("transcript: %s\n", s.Transcript)
	}
	status := []string{"status " + s.Status}
	for _, f := range [][2]string{{"drift ", v.Drift}, {"edit applied ", v.Edit}, {"valid ", v.Valid}, {"faithful ", v.Faithful}} {
		if f[1] != "" {
			status = append(status, f[0]+f[1])
		}
	}
	p("%s\n", strings.Join(status, " · "))
	cost := "unknown"
	if s.Usage.Cost != nil {
		cost = fmt.Sprintf("$%.4f", *s.Usage.Cost)
	}
	p("cost %s · %s prompt + %s completion tokens · %d %s · %d ms", cost, unit.TokenText(s.Usage.PromptTokens, s.Usage.Estimated),
		unit.TokenText(s.Usage.CompletionTokens, s.Usage.Estimated), s.Attempts, unit.Plural(s.Attempts, "attempt", "attempts"), s.LatencyMS)
	if s.Provider != "" {
		p(" · provider %s", s.Provider)
	}
	p("\n")
	if s.ModelServed != "" {
		// Issue 45: show did not say that another model answered.
		p("served by %s, not %s: this answer is no evidence about %s (§8.6)\n", s.ModelServed, s.Model, s.Model)
	}
	if s.Error != nil {
		p("error: %s\n", s.Error.Message)
	}
	if f := s.FirstTry; f != nil && s.Rounds > 0 {
		// The numbers above are the last round's; say what the first
		// answer was told (the cost covers every round).
		p("feedback: %d %s after a first answer that was not well-formed: %s\n", s.Rounds, unit.Plural(s.Rounds, "round", "rounds"), oneLine(f.Problem))
	}
}

// oneLine is s on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// showOutput prints the expected → produced diff, or the raw output.
func showOutput(p printer, v transcriptView) {
	switch {
	case len(v.Hunks) > 0:
		p("\nExpected → produced\n")
		for _, h := range v.Hunks {
			p("  %s\n", h.Header)
			for _, l := range h.Lines {
				p("  %s%s\n", l.Op, l.Text)
			}
		}
	case v.Identical:
		p("\nExpected → produced: identical\n")
	case v.NoDiff != "":
		p("\nExpected → produced: %s\n", v.NoDiff)
	}
	if v.Raw != "" {
		p("\nOutput\n%s", indent(v.Raw))
		if v.Truncated {
			p("  … (cut at %d bytes)\n", MaxShown)
		}
	}
}

// showFindings prints the edit operations, the diagnostics and the judge
// votes.
func showFindings(p printer, v transcriptView) {
	if len(v.Ops) > 0 {
		p("\nEdit operations\n")
		for _, op := range v.Ops {
			p("  %s %s", unit.Mark(op.OK), op.Op)
			if op.Reason != "" {
				p(": %s", op.Reason)
			}
			p("\n")
		}
	}
	if len(v.Diagnostics) > 0 || len(v.Validation) > 0 || v.Invalid != "" {
		p("\nDiagnostics\n")
		if v.Invalid != "" {
			p("  invalid: %s\n", v.Invalid)
		}
		for _, e := range v.Validation {
			p("  %s\n", e)
		}
		for _, d := range v.Diagnostics {
			p("  %s: %s\n", d.Kind, d.Detail)
		}
	}
	if len(v.Votes) > 0 || v.Decision != "" {
		p("\nJudge votes: %s\n", v.Decision)
		for _, vote := range v.Votes {
			why := vote.Reason
			if vote.Error != "" {
				why = vote.Error
			}
			p("  %s: %s: %s\n", vote.Judge, vote.Verdict, why)
			if vote.ModelServed != "" {
				p("    served by %s, not %s: counted as its vote all the same (§8.4, §8.6)\n", vote.ModelServed, vote.Judge)
			}
			for _, q := range vote.UngroundedQuotes {
				p("    not in the document: %q\n", q)
			}
		}
	}
}

// indent indents every line of s by two spaces and ends it with a newline.
func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}
