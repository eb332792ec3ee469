package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/internal/atomicfile"
	"bendscript.com/round-trip-harness/internal/regularfile"
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
	Error      string   `json:"error,omitempty"` // why it could not be asked
}

// Generations is what Reconcile needs of a client: model.OpenRouter.
type Generations interface {
	Generation(ctx context.Context, id string) (*model.Generation, error)
}

// Reconcile asks OpenRouter for the cost of every attempt of a run whose
// transcript (superseded ones included) has a generation id but no cost,
// writes the answers to <run>/reconciled.json and returns them. With
// failedOnly, only the attempts that failed or were interrupted are asked
// (what a run does by itself at its end; an answer whose provider
// reported no cost is left to `harness runs --reconcile`).
func Reconcile(ctx context.Context, runDir string, g Generations, failedOnly bool) (*Reconciliation, error) {
	wanted, err := unknownCosts(runDir, failedOnly)
	if err != nil {
		return nil, err
	}
	rec := &Reconciliation{Generations: []ReconciledGeneration{}}
	for _, w := range wanted {
		gen, err := g.Generation(ctx, w.ID)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		switch {
		case err != nil:
			w.Error = err.Error()
		case gen.Cost != nil && model.ValidCost(rec.USD+*gen.Cost):
			w.Cost, w.Provider = gen.Cost, gen.Provider
			rec.USD += *gen.Cost
		default:
			w.Provider = gen.Provider
		}
		if w.Cost == nil {
			rec.Unresolved++
		}
		rec.Generations = append(rec.Generations, w)
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

// UnknownCosts counts the attempts of runDir that have a generation id
// and no cost: what ReconcileRun would ask GET /generation for. An
// offline run has none.
func UnknownCosts(runDir string) (int, error) {
	wanted, err := unknownCosts(runDir, false)
	return len(wanted), err
}

// ReconcileRun reconciles runDir (Reconcile, every unknown cost) through
// the OpenRouter client conn makes: `harness runs --reconcile RUN`.
func ReconcileRun(ctx context.Context, runDir string, conn Connection) (*Reconciliation, error) {
	c, err := conn.openRouter()
	if err != nil {
		return nil, err
	}
	return Reconcile(ctx, runDir, c, false)
}

// reconcileAtEnd prices, at the end of an online run's requests, the
// attempts that failed or were interrupted with a generation id and no
// cost (Reconcile with failedOnly), and says what it found. It fails
// nothing: the costs are accounting, and `harness runs --reconcile` asks
// again.
func reconcileAtEnd(ctx context.Context, w io.Writer, runDir string, c Generations) {
	wanted, err := unknownCosts(runDir, true)
	if err != nil || len(wanted) == 0 || c == nil {
		return
	}
	rec, err := Reconcile(ctx, runDir, c, true)
	if err != nil {
		fmt.Fprintf(w, "reconcile: %v (run `harness runs --reconcile %s` later)\n", err, runDir)
		return
	}
	fmt.Fprintf(w, "reconciled: %d %s of unknown cost priced by GET /generation: $%.4f", len(rec.Generations),
		unit.Plural(len(rec.Generations), "attempt", "attempts"), rec.USD)
	if rec.Unresolved > 0 {
		fmt.Fprintf(w, " (%d not priced yet: run `harness runs --reconcile %s` later)", rec.Unresolved, runDir)
	}
	fmt.Fprintf(w, "; written %s\n", filepath.Join(runDir, ReconcileName))
}
