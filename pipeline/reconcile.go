package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/atomicfile"
	"bendscript.com/round-trip-harness/internal/regularfile"
	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/unit"
)

// ReconcileName is the file in a run directory that holds the costs
// reconciled from GET /generation: transcripts are never rewritten, so
// what OpenRouter says afterwards is kept beside them.
const ReconcileName = "reconciled.json"

// Reconciliation is the content of ReconcileName.
type Reconciliation struct {
	// Generations are the attempts whose cost the transcript did not know
	// (an interrupted or silent stream reports no usage), each with what
	// GET /generation?id= said, sorted by transcript and generation id.
	Generations []ReconciledGeneration `json:"generations"`
	// USD is the sum of the costs found.
	USD float64 `json:"usd"`
	// Unresolved counts the generations OpenRouter gave no cost for.
	Unresolved int `json:"unresolved"`
}

// ReconciledGeneration is one attempt's generation as OpenRouter priced it.
type ReconciledGeneration struct {
	Transcript string   `json:"transcript"` // path below the run directory
	ID         string   `json:"id"`
	Cost       *float64 `json:"cost"` // null when OpenRouter did not say
	Provider   string   `json:"provider,omitempty"`
	Error      string   `json:"error,omitempty"` // why it is not priced (no answer in time, no cost given, ...)
}

// Generations is what Reconcile needs of a client: model.OpenRouter.
type Generations interface {
	Generation(ctx context.Context, id string) (*model.Generation, error)
}

// ReconcileOptions says what Reconcile asks and how long it may take.
type ReconcileOptions struct {
	// FailedOnly asks only the attempts that failed or were interrupted
	// (what a run does by itself at its end; an answer whose provider
	// reported no cost is left to `harness runs --reconcile`).
	FailedOnly bool
	// Bound is the whole reconcile's deadline (timeouts.reconcile): an
	// attempt not priced by then stays unknown, with why; 0 is
	// config.DefaultReconcile. Each call has its own deadline besides
	// (timeouts.bookkeeping, the client's).
	Bound time.Duration
	// Stdout hears what the reconcile is doing; nil hears nothing.
	Stdout io.Writer
}

// Reconcile asks OpenRouter for the cost of every attempt of a run whose
// transcript (superseded ones included) has a generation id but no cost,
// within o.Bound in all, writes the answers to <run>/reconciled.json and
// returns them. An attempt an earlier reconcile priced is kept, not asked
// again; one it could not price is asked again. An answer for another
// generation id than the one asked is refused. What stays unpriced (no
// answer in time, the bound ran out, no cost said) is in the file with
// why. Only the caller's ctx ending (a signal) fails it, at once.
func Reconcile(ctx context.Context, runDir string, g Generations, o ReconcileOptions) (*Reconciliation, error) {
	wanted, err := unknownCosts(runDir, o.FailedOnly)
	if err != nil {
		return nil, err
	}
	bound := cmp.Or(o.Bound, config.DefaultReconcile)
	have := map[[2]string]ReconciledGeneration{}
	if old, err := readReconciliation(runDir); err == nil {
		for _, gen := range old.Generations {
			have[[2]string{gen.Transcript, gen.ID}] = gen
		}
	}
	var ask []ReconciledGeneration
	for _, w := range wanted {
		if old, ok := have[[2]string{w.Transcript, w.ID}]; !ok || old.Cost == nil {
			ask = append(ask, w)
		}
	}
	if o.Stdout != nil && len(ask) > 0 {
		fmt.Fprintf(o.Stdout, "reconcile: asking GET /generation for the cost of %d %s (at most %s in all: timeouts.reconcile)\n",
			len(ask), unit.Plural(len(ask), "attempt", "attempts"), bound)
	}
	bctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	ranOut := fmt.Sprintf("the reconcile's bound of %s (timeouts.reconcile) ran out", bound)
	for _, w := range ask {
		if bctx.Err() != nil && ctx.Err() == nil {
			w.Error = ranOut
			have[[2]string{w.Transcript, w.ID}] = w
			continue
		}
		gen, err := g.Generation(bctx, w.ID)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		switch {
		case err != nil && bctx.Err() != nil:
			w.Error = ranOut
		case err != nil:
			w.Error = err.Error()
		case gen.ID != w.ID:
			// A cost for another generation is not this attempt's
			// (issue 53: it was accepted).
			w.Error = fmt.Sprintf("GET /generation?id=%s answered for another generation (%s): not this attempt's cost", w.ID, safetext.Line(gen.ID))
		case gen.Cost != nil:
			w.Cost, w.Provider = gen.Cost, gen.Provider
		default:
			w.Provider = gen.Provider
			w.Error = "GET /generation gave no cost"
		}
		have[[2]string{w.Transcript, w.ID}] = w
	}
	rec := &Reconciliation{Generations: []ReconciledGeneration{}}
	for _, k := range slices.SortedFunc(maps.Keys(have), func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	}) {
		gen := have[k]
		if gen.Cost != nil && !model.ValidCost(rec.USD+*gen.Cost) {
			gen.Cost, gen.Error = nil, "the reconciled costs sum beyond the bound of a cost"
		}
		if gen.Cost != nil {
			rec.USD += *gen.Cost
		} else {
			rec.Unresolved++
		}
		rec.Generations = append(rec.Generations, gen)
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(filepath.Join(runDir, ReconcileName), append(b, '\n')); err != nil {
		return nil, fmt.Errorf("writing %s: %w", ReconcileName, err)
	}
	return rec, nil
}

// unpricedOf lists the attempts runDir's reconciliation left unpriced,
// with why, for the report; none when it has none or it cannot be read.
func unpricedOf(runDir string) []aggregate.Unpriced {
	rec, err := readReconciliation(runDir)
	if err != nil {
		return nil
	}
	var out []aggregate.Unpriced
	for _, g := range rec.Generations {
		if g.Cost == nil {
			out = append(out, aggregate.Unpriced{Transcript: g.Transcript, ID: g.ID, Why: cmp.Or(g.Error, "GET /generation gave no cost")})
		}
	}
	return out
}

// readReconciliation reads runDir's ReconcileName.
func readReconciliation(runDir string) (*Reconciliation, error) {
	b, err := regularfile.Read(filepath.Join(runDir, ReconcileName), transcript.MaxSize)
	if err != nil {
		return nil, err
	}
	var rec Reconciliation
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(runDir, ReconcileName), err)
	}
	return &rec, nil
}

// unknownCosts lists the attempts of runDir's transcript files that have a
// generation id and no cost, sorted.
func unknownCosts(runDir string, failedOnly bool) ([]ReconciledGeneration, error) {
	if _, err := transcript.ReadManifest(runDir); err != nil {
		return nil, err
	}
	var out []ReconciledGeneration
	err := filepath.WalkDir(runDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Dir(path) == runDir ||
			!strings.HasSuffix(path, ".json") && !strings.Contains(path, ".json.superseded-") {
			return err
		}
		b, err := regularfile.Read(path, transcript.MaxSize)
		if err != nil {
			return err
		}
		var t struct {
			Attempts []transcript.Attempt `json:"attempts"`
		}
		if err := json.Unmarshal(b, &t); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rel, _ := filepath.Rel(runDir, path)
		for _, a := range t.Attempts {
			if a.GenerationID != "" && a.Cost == nil && (!failedOnly || a.Interrupted || a.Error != "") {
				out = append(out, ReconciledGeneration{Transcript: filepath.ToSlash(rel), ID: a.GenerationID})
			}
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	slices.SortFunc(out, func(a, b ReconciledGeneration) int {
		return cmp.Or(cmp.Compare(a.Transcript, b.Transcript), cmp.Compare(a.ID, b.ID))
	})
	return out, err
}

// ReconcileRunOptions is `harness runs --reconcile RUN`.
type ReconcileRunOptions struct {
	// Bound is the whole reconcile's deadline; 0 is the run's
	// timeouts.reconcile (else config.DefaultReconcile).
	Bound time.Duration
	// Stdout hears what the reconcile is doing; nil hears nothing.
	Stdout io.Writer
	// SealKey is $HARNESS_SEAL_KEY: a sealed run is reconciled only with
	// it, its seal verified first and re-made after (recording the
	// reconcile and its time).
	SealKey []byte
	// Now is the clock of the re-seal's time; nil is time.Now.
	Now func() time.Time
}

// UnknownCosts counts the attempts of runDir that have a generation id
// and no cost: what ReconcileRun would ask GET /generation for. An
// offline run has none.
func UnknownCosts(runDir string) (int, error) {
	wanted, err := unknownCosts(runDir, false)
	return len(wanted), err
}

// ReconcileRun reconciles runDir (Reconcile, every unknown cost) through
// the OpenRouter client conn makes: `harness runs --reconcile RUN`. It
// holds the run's lock while it writes. A sealed run (seal.json, or
// run.json's sealed_at) is refused without the key, as reconciled.json
// would break its seal (issue 53: rescore and resume then refused the
// archive as tampered); with the key its seal is verified, and re-made
// once reconciled.json is written, recording the reconcile and when.
// Each call is bounded by conn's bookkeeping deadline, unless conn sets
// none (then the run's timeouts.bookkeeping).
func ReconcileRun(ctx context.Context, runDir string, conn Connection, o ReconcileRunOptions) (*Reconciliation, error) {
	m, err := transcript.ReadManifest(runDir)
	if err != nil {
		return nil, err
	}
	var timeouts config.Timeouts
	if _, cfg, err := ReadRun(runDir); err == nil {
		timeouts = cfg.Timeouts
	}
	conn.Bookkeeping = cmp.Or(conn.Bookkeeping, timeouts.BookkeepingTimeout())
	release, err := lockRun(runDir)
	if err != nil {
		return nil, err
	}
	defer release()
	sealedBefore := sealedRun(runDir, m)
	if sealedBefore {
		if len(o.SealKey) == 0 {
			return nil, fmt.Errorf("runs --reconcile %s: %w: writing %s would break its seal, and only the key can re-seal it; set %s to reconcile the run (its seal is verified, then re-made recording the reconcile), or leave its costs as they are",
				runDir, ErrSealedNoKey, ReconcileName, SealKeyEnv)
		}
		if _, err := CheckSeal(runDir, o.SealKey); err != nil {
			return nil, fmt.Errorf("runs --reconcile: %w", err)
		}
	}
	c, err := conn.openRouter()
	if err != nil {
		return nil, err
	}
	rec, err := Reconcile(ctx, runDir, c, ReconcileOptions{Bound: cmp.Or(o.Bound, timeouts.ReconcileTimeout()), Stdout: o.Stdout})
	if err != nil {
		return nil, err
	}
	if sealedBefore {
		at := clock(o.Now).UTC().Format(time.RFC3339)
		integrity, err := writeSeal(runDir, o.SealKey, at)
		if err != nil {
			return nil, err
		}
		if o.Stdout != nil {
			fmt.Fprintf(o.Stdout, "re-sealed: %s\n", integrity)
		}
	}
	return rec, nil
}

// reconcileAtEnd prices, at the end of an online run's requests, the
// attempts that failed or were interrupted with a generation id and no
// cost (Reconcile with FailedOnly), within bound in all, and says what it
// does and what it found. It fails nothing and never holds up scoring
// longer than bound: the costs are accounting, what it could not price
// stays unknown (the report names them), and `harness runs --reconcile`
// asks again. A signal ends it at once.
func reconcileAtEnd(ctx context.Context, w io.Writer, runDir string, c Generations, bound time.Duration) {
	wanted, err := unknownCosts(runDir, true)
	if err != nil || len(wanted) == 0 || c == nil {
		return
	}
	rec, err := Reconcile(ctx, runDir, c, ReconcileOptions{FailedOnly: true, Bound: bound, Stdout: w})
	if err != nil {
		fmt.Fprintf(w, "reconcile: %v (run `harness runs --reconcile %s` later)\n", err, runDir)
		return
	}
	fmt.Fprintf(w, "reconciled: %d %s of unknown cost priced by GET /generation: $%.4f", len(rec.Generations)-rec.Unresolved,
		unit.Plural(len(rec.Generations)-rec.Unresolved, "attempt", "attempts"), rec.USD)
	if rec.Unresolved > 0 {
		fmt.Fprintf(w, " (%d not priced: run `harness runs --reconcile %s` later)", rec.Unresolved, runDir)
	}
	fmt.Fprintf(w, "; written %s\n", filepath.Join(runDir, ReconcileName))
	UnpricedLines(w, rec)
}

// maxUnpricedLines bounds the unpriced attempts printed or reported one
// by one; reconciled.json lists them all.
const maxUnpricedLines = 10

// UnpricedLines names each attempt a reconcile left unpriced, and why.
func UnpricedLines(w io.Writer, rec *Reconciliation) {
	n := 0
	for _, g := range rec.Generations {
		if g.Cost != nil {
			continue
		}
		if n++; n <= maxUnpricedLines {
			fmt.Fprintf(w, "  not priced: %s (%s): %s\n", g.Transcript, safetext.Line(g.ID), safetext.Line(g.Error))
		}
	}
	if n > maxUnpricedLines {
		fmt.Fprintf(w, "  and %d more: %s lists them\n", n-maxUnpricedLines, ReconcileName)
	}
}
