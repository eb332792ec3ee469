package pipeline

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
)

// The preflight's estimate as it is printed (printEstimate), from the
// values estimateRun computed.

// printEstimate prints the estimate: the answer jobs, per model their
// tokens, cost, determinism and policy, the jobs capped or not sent, the
// judge votes, and the total against the spending cap.
func printEstimate(w io.Writer, o Options, p *plan, caps *capabilities, est runEstimate) {
	fmt.Fprintf(w, "preflight: %d answer jobs\n", est.all)
	if est.resume != "" {
		fmt.Fprintln(w, est.resume)
	}
	answerLines(w, p.online, caps, est, o.Set, p.suite.FitsOutput)
	budgetLines(w, est.planned, o.Set, est.params)
	voteLines(w, est.votes, caps.history.runsOf)
	printTotal(w, est, o.Inputs.MaxCost)
}

// answerLines prints each online model's jobs, tokens, estimated cost,
// determinism and policy (per rung too, for the size suite).
func answerLines(w io.Writer, online []string, caps *capabilities, est runEstimate, set *task.Set, perRung bool) {
	planned := est.planned
	for _, m := range online {
		e, ok := est.answers[m]
		if !ok && !slices.ContainsFunc(planned, func(j runner.Job) bool { return j.Model == m }) {
			continue // a judge only
		}
		cost := "unknown"
		if c, ok := e.cost(); ok {
			cost = fmt.Sprintf("$%.2f", c)
		}
		fmt.Fprintf(w, "  %-40s %3d jobs  ~%d prompt (~%d cached, ~%d cache writes) + ~%d completion (~%d reasoning) tokens  est. %s\n",
			m, e.planned, e.prompt, e.cached, e.written, e.completion, e.reasoning, cost)
		fmt.Fprintf(w, "  %-40s basis: %s\n", "", basis(e.planned, e.learned, e.from, "answers", caps.history.runsOf(m)))
		pol := caps.policies[m]
		fmt.Fprintf(w, "  %-40s determinism: %s\n", "", determinismText(pol))
		fmt.Fprintf(w, "  %-40s policy: %s\n", "", policyText(pol))
		if perRung {
			rungLines(w, m, caps, planned, set)
		}
		formatLines(w, m, caps, planned, set)
	}
}

// policyText is a policy in one line: reasoning, temperature, budgets,
// the model's maximum output and the provider pin.
func policyText(pol model.Policy) string {
	var parts []string
	r := "reasoning not sent"
	if pol.Reasoning != nil {
		b, _ := json.Marshal(pol.Reasoning)
		r = fmt.Sprintf("reasoning %s (%s, ~%d tokens of room)", b, pol.ReasoningSource, pol.ReasoningAllowance)
	}
	parts = append(parts, r)
	maxOut := "maximum output not listed"
	if pol.MaxOutput > 0 {
		maxOut = fmt.Sprintf("maximum output %d", pol.MaxOutput)
	}
	parts = append(parts, fmt.Sprintf("max_tokens %d, judge votes %d, %s", pol.MaxTokens, pol.JudgeMaxTokens, maxOut))
	if pol.Provider != nil {
		b, _ := json.Marshal(pol.Provider)
		parts = append(parts, "provider "+string(b))
	}
	parts = append(parts, pol.Notes...)
	return strings.Join(parts, "; ")
}

// budgetLines names, per model, the jobs whose budget the model's
// maximum output caps and those it cannot fit at all (not sent), and why.
func budgetLines(w io.Writer, planned []runner.Job, set *task.Set, params map[string]jobs.Params) {
	for _, j := range planned {
		t := set.Task(j.Record.TaskID)
		if t == nil {
			continue
		}
		_, capped, skip := jobs.Budget(t, params[j.Model])
		switch {
		case skip != "":
			fmt.Fprintf(w, "  %-40s %s: %s\n", j.Model, t.ID, skip)
		case capped != "":
			fmt.Fprintf(w, "  %-40s %s: %s\n", j.Model, t.ID, capped)
		}
	}
}

// rungLines prints what each document of the size suite (each rung) or
// of the delegate suite (each chain) costs model m, before anything is
// paid. A task counts under the document it was made from
// (task.DocumentName), not under its source document: a delegate chain's
// backward steps start from the forward edit's document (issue 56: a
// chain of 20 calls was counted as its 10 forward steps). A document
// with none of m's jobs (not selected) has no line.
func rungLines(w io.Writer, m string, caps *capabilities, planned []runner.Job, set *task.Set) {
	byDoc := map[string][]runner.Job{}
	for _, j := range planned {
		if t := set.Task(j.Record.TaskID); j.Model == m && t != nil {
			byDoc[t.DocumentName] = append(byDoc[t.DocumentName], j)
		}
	}
	for _, d := range set.Documents {
		if len(byDoc[d.Name]) > 0 { // a document --docs left out has no line
			groupLine(w, d.Name, m, caps, byDoc[d.Name], set)
		}
	}
}

// groupLine prints what a group of model m's jobs (a document's, a
// format's) costs it, before anything is paid.
func groupLine(w io.Writer, name, m string, caps *capabilities, planned []runner.Job, set *task.Set) {
	e := estimate(planned, set, caps)[m]
	cost := "unknown"
	if c, ok := e.cost(); ok {
		cost = fmt.Sprintf("$%.2f", c)
	}
	fmt.Fprintf(w, "    %-38s %3d jobs  ~%d prompt + ~%d completion tokens  est. %s\n", name, e.planned, e.prompt, e.completion, cost)
}

// voteLines prints each listed judge's planned votes and their
// estimated cost (an offline judge costs nothing).
func voteLines(w io.Writer, ve map[string]tokenEstimate, runsOf func(string) []string) {
	for _, j := range slices.Sorted(maps.Keys(ve)) {
		e := ve[j]
		cost := "unknown"
		if c, ok := e.cost(); ok {
			cost = fmt.Sprintf("$%.2f", c)
		}
		fmt.Fprintf(w, "  %-40s %3d judge votes  ~%d prompt + ~%d completion (~%d reasoning) tokens  est. %s; basis: %s\n", j, e.planned, e.prompt, e.completion, e.reasoning, cost,
			basis(e.planned, e.learned, e.from, "votes", runsOf(j)))
	}
}

// printTotal prints the estimated cost and, with a spending cap, the cap
// against it.
func printTotal(w io.Writer, est runEstimate, maxCost float64) {
	total := est.total()
	suffix := ""
	if !est.known {
		suffix = " (some prices unknown)"
	}
	fmt.Fprintf(w, "  estimated cost: $%.2f%s (answers $%.2f, judge votes $%.2f)\n", total, suffix, est.answersUSD, total-est.answersUSD)
	if maxCost > 0 {
		verdict := "the estimate is within the cap"
		if total >= maxCost {
			verdict = "the estimate reaches the cap: the run will stop there, incomplete; resume it with a higher --max-cost, or select fewer tasks"
		}
		fmt.Fprintf(w, "  spending cap: $%.2f against the estimate of $%.2f: %s\n", maxCost, total, verdict)
	}
}

// determinismText says which determinism controls a policy sends, and
// why it does not send the others (or sends them otherwise than
// configured).
func determinismText(pol model.Policy) string {
	if pol.Temperature != nil && pol.Seed != nil && pol.TemperatureNote == "" && pol.SeedNote == "" {
		return "temperature and seed sent"
	}
	var parts []string
	for _, c := range []struct {
		name, note string
		sent       bool
	}{{"temperature", pol.TemperatureNote, pol.Temperature != nil}, {"seed", pol.SeedNote, pol.Seed != nil}} {
		switch {
		case c.sent && c.note == "":
			parts = append(parts, c.name+" sent")
		default:
			parts = append(parts, c.name+" "+c.note)
		}
	}
	text := strings.Join(parts, "; ")
	if pol.Temperature == nil || pol.Seed == nil {
		text += "; answers are not reproducible call for call (--repeats N measures the noise)"
	}
	return text
}

// formatLines prints, for a run that asks in more than one answer format,
// what each format's answers cost model m, before anything is paid.
func formatLines(w io.Writer, m string, caps *capabilities, planned []runner.Job, set *task.Set) {
	var names []string
	byFormat := map[string][]runner.Job{}
	for _, j := range planned {
		t := set.Task(j.Record.TaskID)
		if j.Model != m || t == nil || t.Class == task.ClassA {
			continue
		}
		f := formats.Of(t.Format).Name
		if _, ok := byFormat[f]; !ok {
			names = append(names, f)
		}
		byFormat[f] = append(byFormat[f], j)
	}
	if !formats.Several(names) {
		return
	}
	for _, f := range names {
		groupLine(w, "format "+f+" (B, C)", m, caps, byFormat[f], set)
	}
}
