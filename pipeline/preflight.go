package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/runner"
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
	// history is what earlier runs measured of these models under these
	// policies (readHistory); nil without a listing.
	history *history
}

func newCapabilities() *capabilities {
	return &capabilities{lacking: map[string][]string{}, listed: map[string]model.ModelInfo{}, policies: map[string]model.Policy{}}
}

// preflight is the run's one step between the plan and the run directory,
// and it reads top to bottom: what the estimate cannot show (planNotes);
// for a run without a model listing (offline models, --no-preflight), what
// it will do (withoutListing); otherwise, before any paid request, the
// account (askAccount: the key, the listing, the models this account can
// route), each model's request policy from the configuration, its
// vendor's rules and its listing (decide: what a model does not honour is
// not sent, and a budget is never above its maximum output), the pinned
// providers (askPins), what earlier runs of these models measured
// (readHistory), the estimate (estimateRun) as printed
// (printEstimate), what the listing says the run should know
// (listingNotes), and the key's credit against the estimate (creditCheck).
// Its inputs are the options and the plan; its output the capabilities
// the run asks with. A dry run stops after it.
func preflight(ctx context.Context, o Options, p *plan) (*capabilities, error) {
	planNotes(o)
	if len(p.online) == 0 || o.Inputs.NoPreflight {
		withoutListing(o, p)
		return newCapabilities(), nil
	}
	l, ok := p.clients[p.online[0]].(lister)
	if !ok {
		return newCapabilities(), nil
	}
	lctx, cancel := context.WithTimeout(ctx, PreflightTimeout)
	defer cancel()
	begun := time.Now()
	fail := func(err error) error {
		if _, ok := errors.AsType[problems](err); ok {
			return err
		}
		return preflightError(err, o.Conn.baseURL(), time.Since(begun), ctx)
	}
	acct, err := askAccount(lctx, o.Stdout, o.Conn.baseURL(), l, p.online)
	if err != nil {
		return nil, fail(err)
	}
	caps := decide(o.Config, p.online, acct)
	for _, m := range p.online {
		for _, warning := range acct.listing[m].PriceWarnings {
			fmt.Fprintf(o.Stdout, "preflight: warning: %s: the listing's %s\n", m, safetext.Line(warning))
		}
	}
	if err := askPins(lctx, l, p.online, caps.policies); err != nil {
		return nil, fail(err)
	}
	caps.history = readHistory(o, p, caps.policies)
	est := estimateRun(o, p, caps)
	printEstimate(o.Stdout, o, p, caps, est)
	listingNotes(o.Stdout, o.Config, p.online, acct.listing, caps, clock(o.Now))
	if err := creditCheck(o.Stdout, acct.key, est.total()); err != nil {
		return nil, err
	}
	return caps, nil
}

// decide is each online model's listing and request policy, and what
// follows from them: the models asked without a schema and the
// determinism controls not sent.
func decide(cfg *config.Config, online []string, acct account) *capabilities {
	caps := newCapabilities()
	for _, m := range online {
		info := acct.listing[m]
		caps.listed[m] = info
		if !info.Supports("response_format") && !info.Supports("structured_outputs") {
			caps.unstructured = append(caps.unstructured, m)
		}
		pol := model.Decide(m, Wanted(cfg, m), info)
		caps.policies[m] = pol
		caps.lacking[m] = lackingOf(pol)
	}
	return caps
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
		planned, _, line := leftToAsk(o, p, jobs.NewAnswers(cfg, o.Prompts, p.tasks, nil, "").All(), nil)
		if line != "" {
			fmt.Fprintln(o.Stdout, line)
		}
		if o.DryRun {
			dryRunLines(o, planned)
		}
	}
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

// preflightError explains a failed preflight request: a key the API
// refused (401, 403); a server that has no model list (404, 405), which
// can be run with --no-preflight; an API that did not answer within
// PreflightTimeout (after waited), with its URL and --no-preflight; any
// other failure as it is.
func preflightError(err error, url string, waited time.Duration, ctx context.Context) error {
	var ae *model.APIError
	switch {
	case ctx.Err() != nil:
		// Issue 56: Ctrl-C here printed "preflight: context canceled".
		return errors.New("interrupted during the preflight (the key and model listing): no job was sent and no run was started; run the command again")
	case errors.As(err, &ae) && (ae.Status == 401 || ae.Status == 403):
		return fmt.Errorf("preflight: the API at %s refused the key: %w (set %s to a valid key)", url, err, model.EnvAPIKey)
	case errors.As(err, &ae) && (ae.Status == 404 || ae.Status == 405):
		return fmt.Errorf("preflight: %w (use --no-preflight for servers without a model list)", err)
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ae) && (ae.Status == 0):
		return fmt.Errorf("preflight: could not reach the API at %s (waited %s): %w; check the network and the API root, or run without the key check, the listing's limits and the estimate with --no-preflight", url, waited.Round(100*time.Millisecond), err)
	}
	return fmt.Errorf("preflight: %w", err)
}
