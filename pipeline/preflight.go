package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/unit"
)

// lister is a client that can list its models (the OpenRouter client).
type lister interface {
	ListModels(ctx context.Context) ([]model.ModelInfo, error)
}

// PreflightTimeout bounds the preflight's requests (the key, the
// listings, the endpoints), all together.
const PreflightTimeout = 30 * time.Second

// ExpiryWarning is how close a model's announced expiration date must be
// for the preflight to warn of it.
const ExpiryWarning = 30 * 24 * time.Hour

// capabilities are what the preflight learned of the online models.
type capabilities struct {
	// unstructured lists the models whose listing says they do not take
	// structured output: judges among them are asked without a schema.
	unstructured []string
	// lacking lists, per model, the determinism controls ("temperature",
	// "seed") its requests do not carry: they are not sent.
	lacking map[string][]string
	// listed is every online model found in the listing.
	listed map[string]model.ModelInfo
	// policies are every listed model's request policy (answers and
	// judge votes alike), recorded in run.json.
	policies map[string]model.Policy
	// key is what /key said of the key; nil when it was not asked.
	key *model.KeyInfo
}

func newCapabilities() *capabilities {
	return &capabilities{lacking: map[string][]string{}, listed: map[string]model.ModelInfo{}, policies: map[string]model.Policy{}}
}

// preflight checks the key and every online model against the provider's
// listings before any paid request: the key must be valid, each model
// listed and routable by this account, each pinned provider among the
// model's endpoints. It decides each model's request policy from the
// configuration, its vendor's rules and its listing (model.Decide): what
// a model does not honour is not sent, and a budget is never above the
// model's maximum output (a job that cannot fit it is named and not
// sent). It prints per model the jobs, tokens and estimated cost, the
// policy, the jobs capped or not sent, the judge votes, and the total
// against the spending cap and the key's remaining credit, which the
// estimate must not exceed.
func preflight(ctx context.Context, o Options, p *plan, votes map[string]int) (*capabilities, error) {
	caps := newCapabilities()
	l, ok := p.clients[p.online[0]].(lister)
	if !ok {
		return caps, nil
	}
	w, cfg := o.Stdout, o.Config
	lctx, cancel := context.WithTimeout(ctx, PreflightTimeout)
	defer cancel()
	begun := time.Now()
	// Said first, so that a slow API is not 30 s of silence.
	fmt.Fprintf(w, "preflight: asking %s for the key, the listing and this account's models (at most %s)\n", o.Conn.baseURL(), PreflightTimeout)
	fail := func(err error) error { return preflightError(err, o.Conn.baseURL(), time.Since(begun), ctx) }
	if k, ok := l.(keyChecker); ok {
		info, err := k.Key(lctx)
		switch {
		case notServed(err):
			// A server that is not OpenRouter's may have a model list and
			// no /key: the run goes on, its key and credit unchecked.
			fmt.Fprintf(w, "preflight: the API has no /key: the key and its credit are not checked\n")
		case err != nil:
			return nil, fail(err)
		default:
			caps.key = &info
		}
	}
	infos, err := l.ListModels(lctx)
	if err != nil {
		return nil, fail(err)
	}
	byID := map[string]model.ModelInfo{}
	for _, m := range infos {
		byID[m.ID] = m
	}
	routable, err := userModels(lctx, l)
	if err != nil {
		return nil, fail(err)
	}
	if problems := listingProblems(p.online, byID, routable); len(problems) > 0 {
		return nil, fmt.Errorf("preflight failed:\n  %s", strings.Join(problems, "\n  "))
	}
	decide(cfg, p.online, byID, caps)
	if problems, err := pinProblems(lctx, l, p.online, caps); err != nil {
		return nil, fail(err)
	} else if len(problems) > 0 {
		return nil, fmt.Errorf("preflight failed:\n  %s", strings.Join(problems, "\n  "))
	}
	// The estimate reads the answer jobs as they will be asked: built
	// here for it alone, with the policies just decided.
	planned := jobs.NewAnswers(cfg, o.Prompts, p.tasks, paramsOf(o, p, caps), "").All()
	fmt.Fprintf(w, "preflight: %d answer jobs\n", len(planned))
	planned, votes = leftToAsk(o, p, planned, votes)
	answers, known := answerLines(w, p.online, caps, planned, o.Set, p.suite.FitsOutput)
	budgetLines(w, planned, o.Set, paramsOf(o, p, caps))
	votesCost, votesKnown := voteLines(w, p.online, byID, caps, voteEstimate(planned, o.Set, votes, caps))
	total := printTotal(w, answers, votesCost, known && votesKnown, o.Inputs.MaxCost)
	listingNotes(w, cfg, p.online, byID, caps, clock(o.Now))
	if err := creditCheck(w, caps.key, total); err != nil {
		return nil, err
	}
	return caps, nil
}

// decide records each online model's listing and policy in caps.
func decide(cfg *config.Config, online []string, byID map[string]model.ModelInfo, caps *capabilities) {
	for _, m := range online {
		info := byID[m]
		caps.listed[m] = info
		if !info.Supports("response_format") && !info.Supports("structured_outputs") {
			caps.unstructured = append(caps.unstructured, m)
		}
		pol := model.Decide(m, Wanted(cfg, m), info)
		caps.policies[m] = pol
		caps.lacking[m] = lackingOf(pol)
	}
}

// lackingOf are the determinism controls pol does not send.
func lackingOf(pol model.Policy) []string {
	var out []string
	if pol.Temperature == nil {
		out = append(out, "temperature")
	}
	if pol.Seed == nil {
		out = append(out, "seed")
	}
	return out
}

// Wanted is what cfg asks of model m's requests.
func Wanted(cfg *config.Config, m string) model.Wanted {
	w := model.Wanted{Temperature: cfg.Request.Temperature, Seed: cfg.Request.Seed, MaxTokens: cfg.MaxTokens(m)}
	s := cfg.ModelSettings[m]
	if r := s.Reasoning; r != nil {
		w.Reasoning = &model.ReasoningPrefs{Effort: r.Effort, MaxTokens: r.MaxTokens, Exclude: r.Exclude, Enabled: r.Enabled}
	}
	if pr := s.Provider; pr != nil {
		w.Provider = &model.ProviderPrefs{Only: pr.Only, Ignore: pr.Ignore, Order: pr.Order, AllowFallbacks: pr.AllowFallbacks, RequireParameters: pr.RequireParameters}
	}
	return w
}

// answerLines prints each online model's jobs, tokens, estimated cost,
// determinism and policy (per rung too, for the size suite). It returns
// the answers' estimated cost and whether every price was known.
func answerLines(w io.Writer, online []string, caps *capabilities, planned []runner.Job, set *task.Set, perRung bool) (total float64, known bool) {
	est := estimate(planned, set, caps)
	known = true
	for _, m := range online {
		e, ok := est[m]
		if !ok && !slices.ContainsFunc(planned, func(j runner.Job) bool { return j.Model == m }) {
			continue // a judge only
		}
		cost := "unknown"
		if c, ok := e.cost(); ok {
			total += c
			cost = fmt.Sprintf("$%.2f", c)
		} else {
			known = false
		}
		fmt.Fprintf(w, "  %-40s %3d jobs  ~%d prompt (~%d cached, ~%d cache writes) + ~%d completion (~%d reasoning) tokens  est. %s\n",
			m, e.planned, e.prompt, e.cached, e.written, e.completion, e.reasoning, cost)
		pol := caps.policies[m]
		fmt.Fprintf(w, "  %-40s determinism: %s\n", "", determinismText(pol))
		fmt.Fprintf(w, "  %-40s policy: %s\n", "", policyText(pol))
		if perRung {
			rungLines(w, m, caps, planned, set)
		}
		formatLines(w, m, caps, planned, set)
	}
	return total, known
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
	parts = append(parts, fmt.Sprintf("max_tokens %d, judge votes %d, maximum output %d", pol.MaxTokens, pol.JudgeMaxTokens, pol.MaxOutput))
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
// chain of 20 calls was counted as its 10 forward steps).
func rungLines(w io.Writer, m string, caps *capabilities, planned []runner.Job, set *task.Set) {
	byDoc := map[string][]runner.Job{}
	for _, j := range planned {
		if t := set.Task(j.Record.TaskID); j.Model == m && t != nil {
			byDoc[t.DocumentName] = append(byDoc[t.DocumentName], j)
		}
	}
	for _, d := range set.Documents {
		groupLine(w, d.Name, m, caps, byDoc[d.Name], set)
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

// voteLines prints each judge's planned votes and their estimated cost
// (an offline judge costs nothing), and returns their total and whether
// every price was known.
func voteLines(w io.Writer, online []string, byID map[string]model.ModelInfo, caps *capabilities, ve map[string]tokenEstimate) (total float64, known bool) {
	known = true
	for _, j := range slices.Sorted(maps.Keys(ve)) {
		if _, ok := caps.listed[j]; !ok {
			if _, listed := byID[j]; !listed && slices.Contains(online, j) {
				known = false
			}
			continue
		}
		e := ve[j]
		cost := "unknown"
		if c, ok := e.cost(); ok {
			total += c
			cost = fmt.Sprintf("$%.2f", c)
		} else {
			known = false
		}
		fmt.Fprintf(w, "  %-40s %3d judge votes  ~%d prompt + ~%d completion (~%d reasoning) tokens  est. %s\n", j, e.planned, e.prompt, e.completion, e.reasoning, cost)
	}
	return total, known
}

// printTotal prints the estimated cost and, with a spending cap, the cap
// against it, and returns the total.
func printTotal(w io.Writer, answers, votes float64, known bool, maxCost float64) float64 {
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
	return total
}

// preflightError explains a failed preflight request: a key the API
// refused (401, 403); a server that has no model list (404, 405), which
// can be run with --no-preflight; an API that did not answer within
// PreflightTimeout (after waited), with its URL and --no-preflight; any
// other failure as it is.
func preflightError(err error, url string, waited time.Duration, ctx context.Context) error {
	var ae *model.APIError
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("preflight: %w", err)
	case errors.As(err, &ae) && (ae.Status == 401 || ae.Status == 403):
		return fmt.Errorf("preflight: the API at %s refused the key: %w (set %s to a valid key)", url, err, model.EnvAPIKey)
	case errors.As(err, &ae) && (ae.Status == 404 || ae.Status == 405):
		return fmt.Errorf("preflight: %w (use --no-preflight for servers without a model list)", err)
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ae) && (ae.Status == 0):
		return fmt.Errorf("preflight: could not reach the API at %s (waited %s): %w; check the network and the API root, or run without the key check, the listing's limits and the estimate with --no-preflight", url, waited.Round(100*time.Millisecond), err)
	}
	return fmt.Errorf("preflight: %w", err)
}

// voteExtra is the prompt tokens a judge vote adds to the class A
// answer's prompt: the answer under judgement and the rubric.
const voteExtra = 400

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

// preflightStep checks the key and the online models against the
// provider's listings and prints the estimate (preflight), or says what
// the run will do without one.
func preflightStep(ctx context.Context, o Options, p *plan) (*capabilities, error) {
	cfg := o.Config
	planNotes(o)
	if len(p.online) > 0 && !o.Inputs.NoPreflight {
		votes := map[string]int{}
		if len(p.judges) > 0 {
			votes = jobs.PlannedVotes(cfg, p.tasks, judge.Config{Gating: cfg.Models, Fixed: cfg.Judges.Models})
		}
		return preflight(ctx, o, p, votes)
	}
	withoutListing(o, p)
	return newCapabilities(), nil
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
	if o.Inputs.MaxCost > 0 {
		fmt.Fprintf(o.Stdout, "run: spending cap $%.2f: without a model listing's prices there is no estimate; only reported costs count against it, and an answer whose cost is not reported stops the run there\n", o.Inputs.MaxCost)
	}
	if len(p.online) > 0 {
		fmt.Fprintln(o.Stdout, "run: no preflight: temperature and seed are sent to every online model, unchecked")
	}
	if o.Resume != nil || o.DryRun {
		planned, _ := leftToAsk(o, p, jobs.NewAnswers(cfg, o.Prompts, p.tasks, nil, "").All(), nil)
		if o.DryRun {
			dryRunLines(o, planned)
		}
	}
}

// leftToAsk is, for a resume, the answers and judge votes of planned
// and votes that the run has left to ask (leftWork), said in one line;
// for a new run, planned and votes as they are. A resume's estimate is
// then the work left, not the whole run's again (issue 56).
func leftToAsk(o Options, p *plan, planned []runner.Job, votes map[string]int) ([]runner.Job, map[string]int) {
	if o.Resume == nil {
		return planned, votes
	}
	left, leftVotes := leftWork(o, p, planned, o.ResumeDir)
	bound := ""
	if o.Inputs.Feedback > 0 && slices.ContainsFunc(p.tasks, func(t *task.Task) bool { return t.Step > 0 }) {
		bound = " (at most: with feedback rounds, a chain that ends early is not foreseen)"
	}
	fmt.Fprintf(o.Stdout, "resume: %d of %d answer jobs and %d judge votes left to ask%s; an estimate counts these alone\n",
		len(left), len(planned), sum(leftVotes), bound)
	return left, leftVotes
}

// sum is the sum of m's values.
func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// dryRunLines prints, for a dry run without a model listing (offline
// models, --no-preflight), each model's planned jobs (a resume's, those
// left) and tokens as the preflight does: a dry run printed one line
// where the manual promised the table (issue 34). Without a listing
// there are no prices.
func dryRunLines(o Options, planned []runner.Job) {
	est := estimate(planned, o.Set, newCapabilities())
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
	return fmt.Sprintf("%d %s", n, unit.Plural(n, noun, noun+"s"))
}

// paramsOf returns each answering model's request parameters: its
// policy's when the preflight decided one (else the configuration's,
// unchecked) and, for a suite that fits output budgets to documents, the
// budget and context that go with it.
func paramsOf(o Options, p *plan, caps *capabilities) map[string]jobs.Params {
	params := map[string]jobs.Params{}
	for _, mod := range o.Config.Models {
		pm := jobs.ParamsFor(o.Config, mod, caps.lacking[mod])
		if pol, ok := caps.policies[mod]; ok {
			pm = jobs.FromPolicy(pol, mod, 0)
		}
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
