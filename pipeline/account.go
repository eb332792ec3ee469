package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/verdict"
)

// The preflight's questions about the account and the listing's future:
// the key and its credit, the models the account can route, the pinned
// providers' endpoints, the models that expire or have a successor.

// What else the OpenRouter client can tell the preflight: the key's
// credit, the models this account can route, a model's providers. A
// client without them (a test's) is checked against the listing alone.
type (
	keyChecker interface {
		Key(ctx context.Context) (model.KeyInfo, error)
	}
	userLister interface {
		ListUserModels(ctx context.Context) ([]model.ModelInfo, error)
	}
	endpointLister interface {
		Endpoints(ctx context.Context, id string) ([]model.Endpoint, error)
	}
)

// account is what the preflight asked the API of this account: the key
// and its credit, and the listing of every model.
type account struct {
	// key is what /key said of the key; nil when the server has none.
	key *model.KeyInfo
	// listing is /models, by id.
	listing map[string]model.ModelInfo
}

// problems are what the preflight found wrong before any paid request,
// one line each: the run is refused with all of them.
type problems []string

func (p problems) Error() string { return "preflight failed:\n  " + strings.Join(p, "\n  ") }

// askAccount asks the API for the key, the listing and the models this
// account can route, saying first where it asks (a slow API is not 30 s
// of silence), and refuses online models the listing lacks or the
// account cannot route.
func askAccount(ctx context.Context, w io.Writer, url string, l lister, online []string) (account, error) {
	var acct account
	fmt.Fprintf(w, "preflight: asking %s for the key, the listing and this account's models (at most %s)\n", url, PreflightTimeout)
	if k, ok := l.(keyChecker); ok {
		info, err := k.Key(ctx)
		switch {
		case notServed(err):
			// A server that is not OpenRouter's may have a model list and
			// no /key: the run goes on, its key and credit unchecked.
			fmt.Fprintf(w, "preflight: the API has no /key: the key and its credit are not checked\n")
		case err != nil:
			return acct, err
		default:
			acct.key = &info
		}
	}
	infos, err := l.ListModels(ctx)
	if err != nil {
		return acct, err
	}
	acct.listing = map[string]model.ModelInfo{}
	for _, m := range infos {
		acct.listing[m.ID] = m
	}
	routable, err := userModels(ctx, l)
	if err != nil {
		return acct, err
	}
	if p := listingProblems(online, acct.listing, routable); len(p) > 0 {
		return acct, p
	}
	return acct, nil
}

// userModels is the set of models /models/user lists, nil when the
// client cannot ask or the server has no such list (404, 405: a server
// that is not OpenRouter's).
func userModels(ctx context.Context, l lister) (map[string]bool, error) {
	u, ok := l.(userLister)
	if !ok {
		return nil, nil
	}
	ms, err := u.ListUserModels(ctx)
	if notServed(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, m := range ms {
		out[m.ID] = true
	}
	return out, nil
}

// notServed reports whether err is the API's 404 or 405: a path the
// server does not serve.
func notServed(err error) bool {
	var ae *model.APIError
	return errors.As(err, &ae) && (ae.Status == 404 || ae.Status == 405)
}

// listingProblems are the online models the listing lacks, or that this
// account cannot route (routable, when known).
func listingProblems(online []string, byID map[string]model.ModelInfo, routable map[string]bool) problems {
	var problems problems
	for _, m := range online {
		switch _, ok := byID[m]; {
		case !ok:
			problems = append(problems, fmt.Sprintf("model %q is not in the provider's model list", m))
		case routable != nil && !routable[m]:
			problems = append(problems, fmt.Sprintf("model %q is listed, but this account cannot route it (not in /models/user: check the account's privacy and provider settings)", m))
		}
	}
	return problems
}

// askPins checks each pinned provider (only, order) of a model's policy
// against the model's endpoints: a pin that names no endpoint would route
// nowhere (or, with fallbacks, elsewhere), and a pinned endpoint whose
// maximum output is below the budget could not serve it.
func askPins(ctx context.Context, l lister, online []string, policies map[string]model.Policy) error {
	el, ok := l.(endpointLister)
	if !ok {
		return nil
	}
	var problems problems
	for _, m := range online {
		pin := policies[m].Provider
		if pin == nil || len(pin.Only)+len(pin.Order) == 0 {
			continue
		}
		eps, err := el.Endpoints(ctx, m)
		if err != nil {
			return err
		}
		have := map[string]model.Endpoint{}
		for _, e := range eps {
			have[e.Slug()] = e
		}
		for _, slug := range append(slices.Clone(pin.Only), pin.Order...) {
			e, ok := have[slug]
			switch {
			case !ok:
				problems = append(problems, fmt.Sprintf("model %q: the pinned provider %q is not among its endpoints (%s)", m, slug, strings.Join(slices.Sorted(maps.Keys(have)), ", ")))
			case e.MaxCompletionTokens > 0 && policies[m].MaxTokens > e.MaxCompletionTokens:
				problems = append(problems, fmt.Sprintf("model %q: the pinned provider %q takes at most %d output tokens, below the budget of %d", m, slug, e.MaxCompletionTokens, policies[m].MaxTokens))
			}
		}
	}
	if len(problems) > 0 {
		return problems
	}
	return nil
}

// creditCheck refuses a run whose estimate exceeds the key's remaining
// credit, naming both; a key without a limit is not bounded by /key.
func creditCheck(w io.Writer, key *model.KeyInfo, total float64) error {
	if key == nil {
		return nil
	}
	if key.BYOKUsage > 0 {
		fmt.Fprintf(w, "  warning: this key has used its own provider keys (BYOK, $%.2f): OpenRouter tries them first, ahead of any provider pin, and bills their usage to them; the harness counts the provider's charge (cost_details.upstream_inference_cost) in every cost and the cap\n", key.BYOKUsage)
	}
	if key.LimitRemaining == nil {
		fmt.Fprintf(w, "  key: valid, no credit limit on the key (the account's balance still bounds the run)\n")
		return nil
	}
	left := *key.LimitRemaining
	if total > left {
		est, credit := fmt.Sprintf("$%.2f", total), fmt.Sprintf("$%.2f", left)
		if est == credit {
			// "$0.00 exceeds $0.00" said nothing (issue 53): amounts that
			// print alike at cents are printed to the hundredth of a cent,
			// and one below a cent is called so.
			est, credit = subCent(total), subCent(left)
		}
		return fmt.Errorf("preflight: the estimated cost %s exceeds the key's remaining credit %s (/key limit_remaining): add credit or raise the key's limit, or select fewer tasks", est, credit)
	}
	fmt.Fprintf(w, "  key: valid, $%.2f of credit left against the estimate of $%.2f\n", left, total)
	return nil
}

// subCent is an amount to the hundredth of a cent, "(below a cent)" when
// it is.
func subCent(usd float64) string {
	s := fmt.Sprintf("$%.4f", usd)
	if usd >= 0 && usd < 0.005 {
		s += " (below a cent)"
	}
	return s
}

// listingNotes prints what the listing says that the run should know:
// a model that expires within ExpiryWarning, and a newer model of a
// gating model's family that is not tier-down.
func listingNotes(w io.Writer, cfg *config.Config, online []string, byID map[string]model.ModelInfo, caps *capabilities, now time.Time) {
	for _, m := range online {
		if soon, at := caps.listed[m].ExpiresWithin(now, ExpiryWarning); soon {
			fmt.Fprintf(w, "  warning: %s expires on %s (the listing's expiration_date): pick its successor before then\n", m, at.Format(time.DateOnly))
		}
	}
	for _, m := range cfg.Models {
		if newer := newerInFamily(m, byID, cfg.Gating.TierDown); len(newer) > 0 {
			fmt.Fprintf(w, "  note: the listing has a newer model of %s's family: %s (§8.6 gates on each vendor's current frontier model; harness.yaml names the models)\n", m, strings.Join(newer, ", "))
		}
	}
}

// newerInFamily are the listed models of m's family with a higher version
// that are not tier-down, sorted: the family is the id up to its first
// digit ("anthropic/claude-opus-" of "anthropic/claude-opus-4.8"), the
// version the numbers that follow ("4.8" < "5").
func newerInFamily(m string, byID map[string]model.ModelInfo, tierDown []string) []string {
	family, version, ok := familyVersion(m)
	if !ok || verdict.TierDownWord(m, tierDown) != "" {
		return nil
	}
	var out []string
	for id := range byID {
		f, v, ok := familyVersion(id)
		if ok && f == family && slices.Compare(v, version) > 0 && verdict.TierDownWord(id, tierDown) == "" {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// familyVersion splits an id at its first digit: the family before it,
// and the dot-separated numbers from it on.
func familyVersion(id string) (string, []int, bool) {
	i := strings.IndexAny(id, "0123456789")
	if i < 0 {
		return "", nil, false
	}
	var v []int
	rest := id[i:]
	for {
		j := 0
		for j < len(rest) && '0' <= rest[j] && rest[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(rest[:j])
		if err != nil {
			break
		}
		v = append(v, n)
		if j >= len(rest) || rest[j] != '.' {
			break
		}
		rest = rest[j+1:]
	}
	return id[:i], v, len(v) > 0
}
