package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
)

// lister is a client that can list its models (the OpenRouter client).
type lister interface {
	ListModels(ctx context.Context) ([]model.ModelInfo, error)
}

// capabilities are what the preflight learned of the online models.
type capabilities struct {
	// unstructured lists the models whose listing says they do not take
	// structured output: judges among them are asked without a schema.
	unstructured []string
	// lacking lists, per model, the determinism controls ("temperature",
	// "seed") its listing does not support: they are not sent.
	lacking map[string][]string
	// listed is every online model found in the listing.
	listed map[string]model.ModelInfo
}

// preflight checks every online model against the provider's model list
// before any paid request: it must exist. What each model supports is a
// capability, recorded and obeyed, never a gate: a parameter a model does
// not honour is not sent (OpenRouter would drop it silently), and a model
// without temperature or seed stays a valid gating model, its numbers
// reported as not reproducible call for call. It prints, per model, the
// jobs, the tokens and the estimated cost (cached prefixes at the cache
// price the listing gives) and the determinism controls it honours.
//
// votes are the judge votes planned per judge: each is estimated as a
// class A answer's prompt plus the answer (voteExtra tokens) and a short
// verdict, at the judge's prices, and added to the estimate. With a
// spending cap (maxCost > 0) it prints the cap against the estimate. With
// perRung (the size ladder) each model's estimate is also broken down by
// rung document.
func preflight(ctx context.Context, online []string, clients map[string]model.Client, planned []runner.Job, votes map[string]int, set *task.Set, perRung bool, maxCost float64, w io.Writer) (*capabilities, error) {
	caps := &capabilities{lacking: map[string][]string{}, listed: map[string]model.ModelInfo{}}
	l, ok := clients[online[0]].(lister)
	if !ok {
		return caps, nil
	}
	lctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	infos, err := l.ListModels(lctx)
	if err != nil {
		return nil, listingError(err)
	}
	byID := map[string]model.ModelInfo{}
	for _, m := range infos {
		byID[m.ID] = m
	}
	fmt.Fprintf(w, "preflight: %d answer jobs\n", len(planned))
	answers, known, problems := answerLines(w, online, byID, caps, planned, set, perRung)
	if len(problems) > 0 {
		return nil, fmt.Errorf("preflight failed:\n  %s", strings.Join(problems, "\n  "))
	}
	votesCost, votesKnown := voteLines(w, online, byID, caps, voteEstimate(planned, set, votes))
	printTotal(w, answers, votesCost, known && votesKnown, maxCost)
	return caps, nil
}

// answerLines checks each online model against the listing, records what
// it honours in caps, and prints its jobs, tokens, estimated cost and
// determinism (per rung too, for the size suite). It returns the answers'
// estimated cost, whether every price was known, and the models the
// listing lacks.
func answerLines(w io.Writer, online []string, byID map[string]model.ModelInfo, caps *capabilities, planned []runner.Job, set *task.Set, perRung bool) (total float64, known bool, problems []string) {
	est := estimate(planned, set)
	known = true
	for _, m := range online {
		info, ok := byID[m]
		if !ok {
			problems = append(problems, fmt.Sprintf("model %q is not in the provider's model list", m))
			continue
		}
		caps.listed[m] = info
		if !info.Supports("response_format") && !info.Supports("structured_outputs") {
			caps.unstructured = append(caps.unstructured, m)
		}
		honoured, lacking := info.Determinism()
		caps.lacking[m] = lacking
		e := est[m]
		cost := "unknown"
		if c, ok := e.cost(info); ok {
			total += c
			cost = fmt.Sprintf("$%.2f", c)
		} else if e.planned > 0 {
			known = false
		}
		fmt.Fprintf(w, "  %-40s %3d jobs  ~%d prompt (~%d cacheable) + ~%d completion tokens  est. %s\n", m, e.planned, e.prompt, e.cached, e.completion, cost)
		fmt.Fprintf(w, "  %-40s determinism: %s\n", "", determinismText(honoured, lacking))
		if perRung {
			rungLines(w, m, info, planned, set)
		}
		formatLines(w, m, info, planned, set)
	}
	return total, known, problems
}

// rungLines prints what each document of the size suite costs model m,
// before anything is paid.
func rungLines(w io.Writer, m string, info model.ModelInfo, planned []runner.Job, set *task.Set) {
	byDoc := map[*task.Document][]runner.Job{}
	for _, j := range planned {
		if t := set.Task(j.Record.TaskID); j.Model == m && t != nil {
			byDoc[t.Source] = append(byDoc[t.Source], j)
		}
	}
	for _, d := range set.Documents {
		groupLine(w, d.Name, m, info, byDoc[d], set)
	}
}

// groupLine prints what a group of model m's jobs (a document's, a
// format's) costs it, before anything is paid.
func groupLine(w io.Writer, name, m string, info model.ModelInfo, planned []runner.Job, set *task.Set) {
	e := estimate(planned, set)[m]
	cost := "unknown"
	if c, ok := e.cost(info); ok {
		cost = fmt.Sprintf("$%.2f", c)
	}
	fmt.Fprintf(w, "    %-38s %3d jobs  ~%d prompt + ~%d completion tokens  est. %s\n", name, e.planned, e.prompt, e.completion, cost)
}

// voteLines prints each judge's planned votes and their estimated cost
// (an offline judge costs nothing), and returns their total and whether
// every price was known.
func voteLines(w io.Writer, online []string, byID map[string]model.ModelInfo, caps *capabilities, ve map[string]tokenEstimate) (total float64, known bool) {
	known = true
	for _, j := range slices.Sorted(maps.Keys(ve)) {
		info, ok := caps.listed[j]
		if !ok {
			if _, listed := byID[j]; !listed && slices.Contains(online, j) {
				known = false
			}
			continue
		}
		e := ve[j]
		cost := "unknown"
		if c, ok := e.cost(info); ok {
			total += c
			cost = fmt.Sprintf("$%.2f", c)
		} else {
			known = false
		}
		fmt.Fprintf(w, "  %-40s %3d judge votes  ~%d prompt + ~%d completion tokens  est. %s\n", j, e.planned, e.prompt, e.completion, cost)
	}
	return total, known
}

// printTotal prints the estimated cost and, with a spending cap, the cap
// against it.
func printTotal(w io.Writer, answers, votes float64, known bool, maxCost float64) {
	total := answers + votes
	suffix := ""
	if !known {
		suffix = " (some prices unknown)"
	}
	fmt.Fprintf(w, "  estimated cost: $%.2f%s (answers $%.2f, judge votes $%.2f)\n", total, suffix, answers, total-answers)
	if maxCost > 0 {
		verdict := "the estimate is within the cap"
		if total >= maxCost {
			verdict = "the estimate reaches the cap: the run will stop there, incomplete; resume it with a higher --max-cost, or select fewer tasks"
		}
		fmt.Fprintf(w, "  spending cap: $%.2f against the estimate of $%.2f: %s\n", maxCost, total, verdict)
	}
}

// listingError explains a failed model listing: a server that has no
// model list (404, 405) can be run with --no-preflight; any other failure
// (the network, the key) cannot be skipped that way.
func listingError(err error) error {
	var ae *model.APIError
	if errors.As(err, &ae) && (ae.Status == 404 || ae.Status == 405) {
		return fmt.Errorf("preflight: %w (use --no-preflight for servers without a model list)", err)
	}
	return fmt.Errorf("preflight: %w", err)
}

// voteExtra is the prompt tokens a judge vote adds to the class A
// answer's prompt: the answer under judgement and the rubric.
const voteExtra = 400

// determinismText says which determinism controls a model honours.
func determinismText(honoured, lacking []string) string {
	switch {
	case len(lacking) == 0:
		return "temperature and seed sent"
	case len(honoured) == 0:
		return "neither temperature nor seed is supported: not sent; answers are not reproducible call for call (--repeats N measures the noise)"
	}
	return fmt.Sprintf("%s sent; %s not supported, not sent: answers are not reproducible call for call (--repeats N measures the noise)",
		strings.Join(honoured, ", "), strings.Join(lacking, ", "))
}

// formatLines prints, for a run that asks in more than one answer format,
// what each format's answers cost model m, before anything is paid.
func formatLines(w io.Writer, m string, info model.ModelInfo, planned []runner.Job, set *task.Set) {
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
		groupLine(w, "format "+f+" (B, C)", m, info, byFormat[f], set)
	}
}

// preflightStep checks the online models against the provider's listing
// and prints the estimate (preflight), or says what the run will do
// without one.
func preflightStep(ctx context.Context, o Options, p *plan) (*capabilities, error) {
	cfg := o.Config
	planNotes(o)
	if len(p.online) > 0 && !o.NoPreflight {
		votes := map[string]int{}
		if len(p.judges) > 0 {
			votes = jobs.PlannedVotes(cfg, p.tasks, judge.Config{Gating: cfg.Models, Fixed: cfg.Judges.Models})
		}
		// The estimate reads the answer jobs as they will be asked, less
		// what the listing decides (parameters): built here for it alone.
		planned := jobs.NewAnswers(cfg, o.Prompts, p.tasks, nil, "").All()
		return preflight(ctx, p.online, p.clients, planned, votes, o.Set, p.suite.FitsOutput, o.MaxCost, o.Stdout)
	}
	withoutListing(o, p)
	return &capabilities{lacking: map[string][]string{}, listed: map[string]model.ModelInfo{}}, nil
}

// planNotes prints what the estimate cannot show: the tasks the suite
// left out, and the feedback rounds that may be asked.
func planNotes(o Options) {
	for _, why := range o.Set.Skipped {
		fmt.Fprintf(o.Stdout, "run: left out of the suite: %s\n", why)
	}
	if n := o.Inputs.Feedback; n > 0 {
		// Rounds are asked only for answers that fail, so no estimate
		// can count them ahead.
		rounds := "rounds"
		if n == 1 {
			rounds = "round"
		}
		fmt.Fprintf(o.Stdout, "run: up to %d feedback %s per class B/C answer that does not parse, apply or validate; not in the estimate below\n", n, rounds)
	}
}

// withoutListing says what the run will do when no model listing is
// asked (offline models, --no-preflight): its size, what the cap can
// count, and with a dry run each model's jobs and tokens.
func withoutListing(o Options, p *plan) {
	cfg := o.Config
	fmt.Fprintf(o.Stdout, "run: %s × %s × %s = %s\n", count(len(cfg.Models), "model"), count(len(p.tasks), "task"), count(cfg.Repeats, "repeat"),
		count(len(cfg.Models)*len(p.tasks)*cfg.Repeats, "job"))
	if o.MaxCost > 0 {
		fmt.Fprintf(o.Stdout, "run: spending cap $%.2f: without a model listing's prices there is no estimate; only reported costs count against it, and an answer whose cost is not reported stops the run there\n", o.MaxCost)
	}
	if len(p.online) > 0 {
		fmt.Fprintln(o.Stdout, "run: no preflight: temperature and seed are sent to every online model, unchecked")
	}
	if o.DryRun {
		dryRunLines(o, p)
	}
}

// dryRunLines prints, for a dry run without a model listing (offline
// models, --no-preflight), each model's jobs and tokens as the preflight
// does: a dry run printed one line where the README promised the table
// (issue 34). Without a listing there are no prices.
func dryRunLines(o Options, p *plan) {
	planned := jobs.NewAnswers(o.Config, o.Prompts, p.tasks, nil, "").All()
	est := estimate(planned, o.Set)
	for _, m := range o.Config.Models {
		cost := "no cost (offline)"
		if !offline.IsOffline(m) {
			cost = "cost unknown (no listing's prices without the preflight)"
		}
		e := est[m]
		fmt.Fprintf(o.Stdout, "  %-40s %3d jobs  ~%d prompt + ~%d completion tokens  %s\n", m, e.planned, e.prompt, e.completion, cost)
	}
}

// count is "1 model", "3 models": n and a noun in its number.
func count(n int, noun string) string {
	return fmt.Sprintf("%d %s", n, report.Plural(n, noun, noun+"s"))
}

// paramsOf returns each answering model's request parameters: what its
// listing honours and, for a suite that fits output budgets to documents,
// the budget and context that go with it.
func paramsOf(o Options, p *plan, caps *capabilities) map[string]jobs.Params {
	params := map[string]jobs.Params{}
	for _, mod := range o.Config.Models {
		pm := jobs.ParamsFor(o.Config, mod, caps.lacking[mod])
		if p.suite.FitsOutput {
			// Every answer re-emits a document of up to 512 KB: the output
			// budget follows the document, and a request that cannot fit
			// the model's context is not sent.
			pm.FitOutput, pm.Context = true, caps.listed[mod].ContextLength
		}
		params[mod] = pm
	}
	return params
}
