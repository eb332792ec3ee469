package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites/delegate"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// delegateRun runs the delegate suite offline and returns its report and
// manifest.
func delegateRun(t *testing.T, dir string, args ...string) (*report.Report, *transcript.Manifest) {
	t.Helper()
	reports := filepath.Join(dir, "reports")
	base := []string{"run", "--suite", "delegate", "--judges", "offline/judge", "--no-preflight", "--progress", "none",
		"--run-id", "d", "--out", filepath.Join(dir, "runs"), "--reports", reports}
	out, errs, code := runCLI(t, append(base, args...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(reports, "d.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.ReadJSON(bytes.NewReader(b), "d.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := transcript.ReadManifest(filepath.Join(dir, "runs", "d"))
	if err != nil {
		t.Fatal(err)
	}
	return rep, m
}

func delegation(t *testing.T, rep *report.Report) *report.Delegation {
	t.Helper()
	for _, sec := range rep.Sections {
		if sec.Delegation != nil {
			return sec.Delegation
		}
	}
	t.Fatal("the report has no delegation")
	return nil
}

// TestDelegateSuite is the delegate suite's done-when, offline, in every
// answer format: offline/oracle's RS@k is 1 and every chain lossless at
// every k; offline/noisy's RS@k falls with k; offline/rare-slip's critical
// round trips are exactly the round trips holding its slips
// (offline.Slips); each chain's round-trip rises sum to its drift at the
// horizon, and its components to that drift.
func TestDelegateSuite(t *testing.T) {
	t.Parallel()
	const seed = 5
	rep, m := delegateRun(t, t.TempDir(), "--models", "offline/oracle,offline/noisy,offline/rare-slip", "--seed", fmt.Sprint(seed),
		"--formats", "document,json-patch,bend-ops,search-replace")
	d := delegation(t, rep)
	if d.Horizon != 20 || !slices.Equal(d.Ks, []int{2, 4, 10, 20}) || len(d.Surfaces) != 12 {
		t.Fatalf("horizon %d, ks %v, %d surfaces; want 20, [2 4 10 20], 3 models × 4 formats", d.Horizon, d.Ks, len(d.Surfaces))
	}
	if len(m.Inputs.Order) != 20 || m.Inputs.Shuffle != seed {
		t.Errorf("the manifest records %d order lines and shuffle seed %d, want 20 and %d", len(m.Inputs.Order), m.Inputs.Shuffle, seed)
	}
	delegateSurfaces(t, d)
	chainRises(t, d)
	chainDeltas(t, d, seed)
	criticalAreSlips(t, d, seed)
}

// delegateSurfaces: every surface has its 20 documents and four ks;
// offline/oracle's RS@k is 1 with every chain lossless, and it is ready;
// offline/noisy's RS@k falls with k; a surface's loss components sum to
// its drift.
func delegateSurfaces(t *testing.T, d *report.Delegation) {
	t.Helper()
	for _, s := range d.Surfaces {
		if s.Documents != 20 || len(s.RS) != 4 {
			t.Fatalf("%s %s: %d documents, %d ks", s.Model, s.Format, s.Documents, len(s.RS))
		}
		first, last := s.RS[0], s.RS[len(s.RS)-1]
		switch s.Model {
		case offline.Oracle:
			for _, at := range s.RS {
				if at.Mean != 1 || at.Lossless != at.Chains || at.Chains != 20 {
					t.Errorf("oracle %s RS@%d = %v, lossless %d of %d; want 1 and all", s.Format, at.K, at.Mean, at.Lossless, at.Chains)
				}
			}
			if s.Ready == nil || !*s.Ready {
				t.Errorf("oracle %s is not ready", s.Format)
			}
		case offline.Noisy:
			if last.Mean >= first.Mean {
				t.Errorf("noisy %s: RS@20 %v, RS@2 %v; want it to fall", s.Format, last.Mean, first.Mean)
			}
		}
		if l := s.Loss; l != nil {
			if sum := l.BlockStructure + l.EdgePreservation + l.SpanCoverage + l.MarkFidelity + l.VocabularyIntegrity; math.Abs(sum-l.Drift) > 1e-9 {
				t.Errorf("%s %s: components sum to %v, drift %v", s.Model, s.Format, sum, l.Drift)
			}
		}
	}
}

// chainRises: every chain's rises sum to its drift at the horizon.
func chainRises(t *testing.T, d *report.Delegation) {
	t.Helper()
	for _, c := range d.Chains {
		if c.Loss == nil || len(c.Rises) != 10 {
			t.Fatalf("chain %+v: want 10 round trips and a loss", c)
		}
		sum := 0.0
		for _, r := range c.Rises {
			sum += r
		}
		if math.Abs(sum-c.Loss.Drift) > 1e-9 {
			t.Errorf("%s %s chain %s: rises sum to %v, drift at the horizon %v", c.Model, c.Format, c.Chain, sum, c.Loss.Drift)
		}
	}
}

// chainDeltas: where the content went. offline/oracle loses nothing;
// offline/rare-slip deletes exactly the blocks (at every depth) of its
// chain's original but its first block from its slip on, and corrupts and
// adds nothing.
func chainDeltas(t *testing.T, d *report.Delegation, seed int64) {
	t.Helper()
	corpus := tasktest.Set(t)
	for _, c := range d.Chains {
		if c.Model == offline.Noisy {
			continue
		}
		if c.Delta == nil {
			t.Fatalf("%s %s chain %s: no delta at the horizon", c.Model, c.Format, c.Chain)
		}
		var want metric.Delta
		switch {
		case c.Model == offline.Oracle, c.Format == "bend-ops": // rare-slip's bend-ops answers drop nothing
		case c.Model == offline.RareSlip:
			if len(offline.Slips(seed, "delegate", c.Chain, lane(c.Format), 20)) > 0 {
				doc := corpus.Documents[atoi(c.Chain)-1].Doc
				for _, b := range doc.Blocks[1:] {
					want.Deleted.Blocks += subtree(b) // a deleted block's spans count with it
				}
			}
		default:
			continue
		}
		if *c.Delta != want {
			t.Errorf("%s %s chain %s: delta %+v, want %+v", c.Model, c.Format, c.Chain, *c.Delta, want)
		}
	}
}

// criticalAreSlips: rare-slip's critical round trips are its slips, each
// with the transcript of its step. (Its bend-ops answers are the gold
// operations, which cannot drop blocks: no slip shows.)
func criticalAreSlips(t *testing.T, d *report.Delegation, seed int64) {
	t.Helper()
	got, want := map[string]bool{}, map[string]bool{}
	for _, c := range d.Critical {
		if c.Model != offline.RareSlip {
			continue
		}
		if c.Transcripts[1] == "" || !strings.Contains(c.Transcripts[1], c.Chain+"-d") {
			t.Errorf("critical %+v: no transcript of its step", c)
		}
		got[fmt.Sprintf("%s %s %d", c.Format, c.Chain, c.Step)] = true
	}
	slips := 0
	for _, f := range []string{"document", "json-patch", "search-replace"} {
		for nn := 1; nn <= 20; nn++ {
			chain := fmt.Sprintf("%02d", nn)
			for _, s := range offline.Slips(seed, "delegate", chain, lane(f), 20) {
				want[fmt.Sprintf("%s %s %d", f, chain, s+s%2)] = true
				slips++
			}
		}
	}
	if slips == 0 || !mapsEqual(got, want) {
		t.Errorf("rare-slip's critical round trips %v, want its %d slips' %v", sortedKeys(got), slips, sortedKeys(want))
	}
}

// lane is the lane offline.Slips draws an answer format's slips in: the
// whole document's is "".
func lane(format string) string {
	if format == "document" {
		return ""
	}
	return format
}

// subtree counts a block and the blocks under it.
func subtree(b *bend.Block) int {
	n := 1
	for _, c := range slices.Concat(b.Items, b.Blocks) {
		n += subtree(c)
	}
	return n
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func mapsEqual(a, b map[string]bool) bool {
	return slices.Equal(sortedKeys(a), sortedKeys(b))
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestDelegateOrderBySeed: the manifest records the forward order; the
// same seed draws the same order, another seed another.
func TestDelegateOrderBySeed(t *testing.T) {
	t.Parallel()
	order := func(seed string) []string {
		_, m := delegateRun(t, t.TempDir(), "--models", "offline/oracle", "--seed", seed, "--round-trips", "1", "--docs", "01,02")
		return m.Inputs.Order
	}
	a, b, c := order("1"), order("1"), order("2")
	if len(a) != 20 || !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Errorf("seed 1: %v and %v; seed 2: %v; want the same twice and another", a, b, c)
	}
}

// TestDelegateResume: a delegate run against a fake server (8 chains of 2
// round trips), killed part-way, resumed: no finished step is asked again
// (counted at the server), every chain goes on from its last finished
// step with the order the run recorded, and rescore reproduces the report
// byte for byte but for rescored_at.
func TestDelegateResume(t *testing.T) {
	t.Parallel()
	c := *tasktest.Set(t)
	if probs := task.WithPool(&c, instructions.FS); len(probs) > 0 {
		t.Fatal(probs)
	}
	set, err := delegate.Build(&c, 2, 20260427, nil)
	if err != nil {
		t.Fatal(err)
	}
	runDir, fresh := killResumeRescore(t, set, "delegation", "delegate", "--round-trips", "2", "--seed", "20260427")
	m, err := transcript.ReadManifest(runDir)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Sections []struct{ Delegation *report.Delegation }
	}
	if err := json.Unmarshal(fresh, &rep); err != nil || len(rep.Sections) == 0 || rep.Sections[0].Delegation == nil {
		t.Fatalf("%v: no delegation in the report", err)
	}
	if !slices.Equal(m.Inputs.Order, set.Order) { // the whole suite's, the selection applied after
		t.Errorf("the resumed run's order %v, want the one drawn with its seed %v", m.Inputs.Order, set.Order)
	}
}

// TestDelegateProjectionSurface: with --formats projection the projection
// is the surface edited: every step is shown its document as the
// projection (step 1 the source's, later steps the model's own answer
// parsed and rendered again), and offline/oracle stays exact.
func TestDelegateProjectionSurface(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rep, _ := delegateRun(t, dir, "--models", "offline/oracle", "--round-trips", "2", "--docs", "01,02", "--formats", "projection")
	d := delegation(t, rep)
	if len(d.Surfaces) != 1 || d.Surfaces[0].Format != "projection" {
		t.Fatalf("surfaces %+v", d.Surfaces)
	}
	for _, at := range d.Surfaces[0].RS {
		if at.Mean != 1 || at.Lossless != at.Chains {
			t.Errorf("oracle on the projection: RS@%d = %v, lossless %d of %d", at.K, at.Mean, at.Lossless, at.Chains)
		}
	}
	html, _ := os.ReadFile(filepath.Join(dir, "reports", "d.html"))
	for _, want := range []string{`id="rs-offline_oracle__projection_"`, "RS@k (the harness&#39;s similarity)", "a chain at a backward edit", "Where the loss comes from"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the viewer lacks %q (the RS@k curve, the step chart's legend, the loss table)", want)
		}
	}
	for _, step := range []string{"01-d001", "01-d002", "02-d004"} {
		tr, err := transcript.Read(filepath.Join(dir, "runs", "d", "offline_oracle", step+".projection.r0.json"))
		if err != nil {
			t.Fatal(err)
		}
		if u := tr.Request.Messages[1].Content; !strings.Contains(u, "\n---\nbendscript: \"0.1\"") || strings.Contains(u, `"blocks":`) {
			t.Errorf("step %s was not shown its document as the projection:\n%.300s", step, u)
		}
	}
}

// TestDelegateRungs: --rungs runs one chain per rung of the size ladder;
// offline/oracle stays exact on it.
func TestDelegateRungs(t *testing.T) {
	t.Parallel()
	rep, m := delegateRun(t, t.TempDir(), "--models", "offline/oracle", "--round-trips", "2", "--rungs", "8k")
	d := delegation(t, rep)
	if len(m.Inputs.Order) != 1 || !strings.HasPrefix(m.Inputs.Order[0], "8k: ") || len(d.Surfaces) != 1 || d.Surfaces[0].Documents != 1 {
		t.Fatalf("order %v, surfaces %+v; want one chain on rung 8k", m.Inputs.Order, d.Surfaces)
	}
	for _, at := range d.Surfaces[0].RS {
		if at.Mean != 1 || at.Lossless != 1 {
			t.Errorf("oracle on rung 8k: RS@%d = %v, lossless %d", at.K, at.Mean, at.Lossless)
		}
	}
}

// TestDelegateRSPerRung: with --rungs 8k,32k the RS@k rows are per
// (model, format, rung), smallest rung first, each holding exactly what
// its rung's chains give (RS@k = 1 − the sum of the chain's first k/2
// round-trip rises, lossless when that is 0), and the Markdown's RS@k and
// loss tables have a row per rung.
func TestDelegateRSPerRung(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rep, _ := delegateRun(t, dir, "--models", "offline/oracle,offline/noisy", "--round-trips", "2", "--rungs", "32k,8k")
	d := delegation(t, rep)
	var keys []string
	for _, s := range d.Surfaces {
		keys = append(keys, s.Model+" "+s.Rung)
	}
	want := []string{"offline/oracle 8k", "offline/oracle 32k", "offline/noisy 8k", "offline/noisy 32k"}
	if !slices.Equal(keys, want) {
		t.Fatalf("surfaces %v, want %v (per model and rung, by rung size)", keys, want)
	}
	for _, s := range d.Surfaces {
		var chains []report.DelegateChain
		for _, c := range d.Chains {
			if c.Model == s.Model && c.Format == s.Format && c.Rung == s.Rung {
				chains = append(chains, c)
			}
		}
		if s.Documents != 1 || len(chains) != 1 || len(s.RS) != len(d.Ks) {
			t.Fatalf("%s rung %s: %d documents, %d chains, %d ks; want one chain at every k", s.Model, s.Rung, s.Documents, len(chains), len(s.RS))
		}
		for _, at := range s.RS {
			drift := 0.0
			for _, r := range chains[0].Rises[:at.K/2] {
				drift += r
			}
			lossless := 0
			if math.Abs(drift) < 1e-12 {
				lossless = 1
			}
			if math.Abs(at.Mean-(1-drift)) > 1e-9 || at.Low != at.Mean || at.High != at.Mean || at.Chains != 1 || at.Lossless != lossless {
				t.Errorf("%s rung %s RS@%d: %+v; its chain gives RS %v, lossless %d", s.Model, s.Rung, at.K, at, 1-drift, lossless)
			}
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "reports", "d.md"))
	for _, row := range []string{"| `offline/noisy (document)` | 8k | 1 | ", "| `offline/noisy (document)` | 32k | 1 | ", "| `offline/noisy (document)` | 8k | 0.", "| model | rung | documents | RS@2 [95%] |"} {
		if !strings.Contains(string(md), row) {
			t.Errorf("the Markdown lacks %q", row)
		}
	}
	html, _ := os.ReadFile(filepath.Join(dir, "reports", "d.html"))
	small, large := strings.Index(string(html), `id="rs-offline_noisy__document___rung_8k"`), strings.Index(string(html), `id="rs-offline_noisy__document___rung_32k"`)
	if small < 0 || large < small {
		t.Errorf("the viewer's RS@k panels per rung: 8k at %d, 32k at %d; want both, 8k first", small, large)
	}
}

// TestDelegateEstimate: the estimate counts every step of every chain: 20
// calls per document per model at the default 10 round trips.
func TestDelegateEstimate(t *testing.T) {
	t.Parallel()
	out, errs, code := runCLI(t, "run", "--suite", "delegate", "--models", "offline/oracle,offline/noisy", "--judges", "offline/judge", "--dry-run", "--progress", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out+errs, "2 models × 400 tasks × 1 repeat = 800 jobs") {
		t.Errorf("the estimate does not count 20 calls per document per model:\n%s%s", out, errs)
	}
}
