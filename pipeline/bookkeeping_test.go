package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// stampedOut is a run's stdout that notes when the first line beginning
// with each prefix it watches arrived, and calls on once a line begins
// with trigger.
type stampedOut struct {
	mu       sync.Mutex
	buf      bytes.Buffer
	watch    []string
	at       map[string]time.Time
	trigger  string
	on       func()
	released bool
}

func (s *stampedOut) Write(p []byte) (int, error) {
	s.mu.Lock()
	now := time.Now()
	for _, line := range strings.Split(string(p), "\n") {
		for _, w := range s.watch {
			if _, seen := s.at[w]; !seen && strings.HasPrefix(line, w) {
				s.at[w] = now
			}
		}
		if s.trigger != "" && !s.released && strings.HasPrefix(line, s.trigger) {
			s.released = true
			defer s.on()
		}
	}
	n, err := s.buf.Write(p)
	s.mu.Unlock()
	return n, err
}

func (s *stampedOut) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func (s *stampedOut) when(prefix string) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.at[prefix]
	return t, ok
}

// cutStreams is a fake whose streams for a/x's answers to ids fail
// mid-stream with no usage: each such attempt has a generation id and no
// cost, what the end-of-run reconcile asks GET /generation about.
func cutStreams(t *testing.T, set *task.Set, ids ...string) *modeltest.Server {
	var marks []string
	for _, id := range ids {
		marks = append(marks, marker(t, set, set.Task(id)))
	}
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if len(req.ResponseFormat) > 0 {
			return modeltest.Text(`{"faithful": true, "quotes": [], "reason": "stated"}`)
		}
		last := req.Messages[len(req.Messages)-1].Content
		if req.Model == "a/x" && slices.ContainsFunc(marks, func(m string) bool { return strings.Contains(last, m) }) {
			return modeltest.Reply{Content: "partial", FinishReason: "error",
				Error: &modeltest.ErrorObject{Code: 502, Message: "Provider disconnected mid-stream", Metadata: map[string]any{"error_type": "provider_unavailable"}}}
		}
		return modeltest.Text(`{"answer": "x", "evidence": []}`)
	})
	srv.SetModels(modeltest.Entry("a/x"), modeltest.Entry("b/y"), modeltest.Entry("c/z"))
	return srv
}

var cutTasks = []string{"03-b", "04-b", "05-b", "06-b", "07-b", "08-b"}

// TestSilentGenerationEndpointBoundsTheReconcile: with GET /generation
// silent, the end-of-run reconcile had no deadline (each call retried at
// a fixed 120 s: ten minutes per unpriced attempt before the report,
// issue 53). Each call is now bounded by timeouts.bookkeeping and the
// whole reconcile by timeouts.reconcile: the report follows within the
// bound, what was not priced stays unknown, and the report and stdout say
// which attempts and why.
func TestSilentGenerationEndpointBoundsTheReconcile(t *testing.T) {
	t.Parallel()
	set := corpusSet(t)
	srv := cutStreams(t, set, cutTasks...)
	srv.SetGenerationReply(func(string) modeltest.Reply { return modeltest.Reply{Hang: true} })
	o, _ := testOptions(t, []string{"a/x", "b/y", "c/z"}, srv.URL)
	// Six silent calls of 600 ms each outlast the bound of 2.4 s, so the
	// bound runs out on some whatever the machine's load (a timer never
	// fires early); the first call ends 1.8 s before it, so some end on
	// their own deadline. (150 ms and 400 ms left a loaded machine too
	// little.) Without the preflight, whose key check and listing the
	// short timeouts.bookkeeping would bound too: they failed so under
	// load, 2 runs of 8 here, and on CI.
	bound := 2400 * time.Millisecond
	o.Config.Timeouts.Reconcile = config.Duration{Duration: bound}
	o.Conn.Bookkeeping = 600 * time.Millisecond
	o.Inputs.NoPreflight = true
	out := &stampedOut{watch: []string{"reconcile: asking", "reconciled:"}, at: map[string]time.Time{}}
	o.Stdout = out
	res, err := Run(context.Background(), o)
	if err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}
	began, ok1 := out.when("reconcile: asking")
	ended, ok2 := out.when("reconciled:")
	if !ok1 || !ok2 {
		t.Fatalf("stdout says neither what the reconcile does nor what it found:\n%s", out)
	}
	// The bound, and room for any loaded machine: a hang. Which bound
	// ended each call is checkSilentReconciliation's; before the fix one
	// silent call alone took the fake's 10 s hang, and six of them
	// followed.
	if took := ended.Sub(began); took > bound+time.Minute {
		t.Errorf("the reconcile took %v; want at most its bound of %v (and some slack)", took, bound)
	}
	checkSilentReconciliation(t, res.RunDir)
	if !strings.Contains(out.String(), "  not priced: a_x/") {
		t.Errorf("stdout does not name the unpriced attempts:\n%s", out)
	}
	checkUnpricedWarned(t, res.Report.Warnings)
	md, _ := os.ReadFile(filepath.Join(o.Inputs.ReportDir, "t.md"))
	if !strings.Contains(string(md), "stayed unpriced by GET /generation") {
		t.Error("the Markdown report does not say which costs stayed unknown")
	}
	// `harness runs --reconcile` is bounded the same way, by the run's
	// own timeouts.reconcile: it asks every attempt of unknown cost
	// (the fake reports no cost for any answer), hundreds of silent calls.
	// The bound is on the asking, timed from the line that starts it:
	// reading the archive before it (hundreds of transcripts) took 9 s
	// under the race detector on a loaded machine, and is no call. The
	// calls, 600 ms each, would take over a minute without it: that the
	// bound ran out is read from why each stayed unpriced, and the time
	// taken only bounds a hang.
	out2 := &stampedOut{watch: []string{"reconcile: asking"}, at: map[string]time.Time{}}
	rec, err := ReconcileRun(context.Background(), res.RunDir, o.Conn, ReconcileRunOptions{Stdout: out2})
	began, asked := out2.when("reconcile: asking")
	if err != nil {
		t.Fatalf("runs --reconcile against a silent endpoint: %v", err)
	}
	ranOut := 0
	for _, g := range rec.Generations {
		if strings.Contains(g.Error, "timeouts.reconcile") {
			ranOut++
		}
	}
	if took := time.Since(began); err != nil || !asked || took > bound+time.Minute || rec.Unresolved != len(rec.Generations) || len(rec.Generations) < 100 || ranOut == 0 {
		t.Errorf("runs --reconcile against a silent endpoint: %v after %v, %d of %d unresolved, %d for the bound; want every one left unpriced, the bound of %v run out",
			err, took, rec.Unresolved, len(rec.Generations), ranOut, bound)
	}
}

// checkSilentReconciliation checks the run's reconciliation against a
// silent GET /generation: every cut attempt unpriced, some for want of an
// answer within timeouts.bookkeeping, the rest because timeouts.reconcile
// ran out, none priced.
func checkSilentReconciliation(t *testing.T, runDir string) {
	t.Helper()
	rec, err := readReconciliation(runDir)
	if err != nil {
		t.Fatal(err)
	}
	var ranOut, silent int
	for _, g := range rec.Generations {
		switch {
		case g.Cost != nil:
			t.Errorf("%s priced at %v by a silent endpoint", g.ID, *g.Cost)
		case strings.Contains(g.Error, "timeouts.reconcile"):
			ranOut++
		case strings.Contains(g.Error, "timeouts.bookkeeping"):
			silent++
		}
	}
	if len(rec.Generations) != len(cutTasks) || rec.Unresolved != len(cutTasks) || ranOut == 0 || silent == 0 {
		t.Errorf("reconciled %+v; want all %d unpriced, some with no answer in timeouts.bookkeeping, the rest after timeouts.reconcile ran out", rec, len(cutTasks))
	}
}

// checkUnpricedWarned checks that the report warns of the unpriced
// attempts, naming every one and why.
func checkUnpricedWarned(t *testing.T, warnings []report.Warning) {
	t.Helper()
	i := slices.IndexFunc(warnings, func(w report.Warning) bool { return w.Kind == report.WarnUnpriced })
	if i < 0 {
		t.Fatalf("the report's warnings %+v do not say which costs stayed unknown", warnings)
	}
	if w := warnings[i]; w.N != len(cutTasks) || len(w.Items) != len(cutTasks) || !strings.HasPrefix(w.Items[0], "a_x/") || !strings.Contains(strings.Join(w.Notes, " "), "timeouts.reconcile") {
		t.Errorf("unpriced warning %+v; want every attempt named with why", w)
	}
}

// TestSignalDuringReconcileEndsAtOnce: a signal while the end-of-run
// reconcile waits on a silent GET /generation ends the run at once, with
// its resume command, however long the bounds are.
func TestSignalDuringReconcileEndsAtOnce(t *testing.T) {
	t.Parallel()
	set := corpusSet(t)
	srv := cutStreams(t, set, cutTasks[:2]...)
	// Silent until the client leaves, past every bound below (Hang
	// answers after 10 s): a run that went on waiting would end a minute
	// after the signal.
	srv.SetGenerationReply(func(string) modeltest.Reply { return modeltest.Reply{Delay: time.Hour} })
	o, _ := testOptions(t, []string{"a/x", "b/y", "c/z"}, srv.URL)
	o.Config.Timeouts.Reconcile = config.Duration{Duration: time.Minute}
	o.Conn.Bookkeeping = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var signalled time.Time
	out := &stampedOut{at: map[string]time.Time{}, trigger: "reconcile: asking", on: func() {
		// The request is sent after the line: the signal comes while
		// the call waits.
		go func() {
			for srv.GenerationRequests() == 0 {
				time.Sleep(time.Millisecond)
			}
			signalled = time.Now()
			cancel()
		}()
	}}
	o.Stdout = out
	_, err := Run(ctx, o)
	took := time.Since(signalled)
	var ie *InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("Run = %v; want the run interrupted, with its resume command\n%s", err, out)
	}
	// At once, with room for any loaded machine (2 s was little for a
	// busy CI core); a run that waits for the call takes a minute.
	if signalled.IsZero() || took > 20*time.Second {
		t.Errorf("the run ended %v after the signal; want at once (under 20 s; waiting for the call takes a minute)", took)
	}
}

// TestReconcileTakesOnlyTheGenerationAsked: GET /generation's answer for
// another generation id was taken as the asked attempt's cost (issue 53);
// it is refused, and the attempt stays unpriced with why. A reconcile
// that then prices every unknown cost makes the run's cost known in
// `harness runs`: it showed "$0.0369+?" after a full reconcile.
func TestReconcileTakesOnlyTheGenerationAsked(t *testing.T) {
	t.Parallel()
	set := corpusSet(t)
	srv := cutStreams(t, set, cutTasks[:2]...)
	o, _ := testOptions(t, []string{"a/x", "b/y", "c/z"}, srv.URL)
	res, err := Run(context.Background(), o)
	if err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}
	conn := Connection{BaseURL: srv.URL, APIKey: "test-key-123456"}
	srv.SetGenerationReply(func(id string) modeltest.Reply {
		return modeltest.Reply{Body: `{"data": {"id": "gen-someone-else", "total_cost": 0.5, "provider_name": "p"}}`}
	})
	rec, err := ReconcileRun(context.Background(), res.RunDir, conn, ReconcileRunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The two cut attempts were priced at the run's end (the fake bills
	// a failed stream $0), and are kept, not asked again.
	if rec.USD != 0 || rec.Unresolved != len(rec.Generations)-2 || len(rec.Generations) < 100 ||
		!strings.Contains(rec.Generations[0].Error, "answered for another generation (gen-someone-else)") {
		t.Errorf("reconcile with answers for another generation: $%v, %d of %d unresolved, first %+v; want none taken, each saying why",
			rec.USD, rec.Unresolved, len(rec.Generations), rec.Generations[0])
	}
	rows, _, err := ListRuns(filepath.Dir(res.RunDir))
	if err != nil || len(rows) != 1 || !strings.HasSuffix(rows[0].Cost, "+?") {
		t.Fatalf("runs before a full reconcile: %+v, %v; want the cost unknown", rows, err)
	}
	srv.SetGenerationReply(nil)
	if rec, err = ReconcileRun(context.Background(), res.RunDir, conn, ReconcileRunOptions{}); err != nil || rec.Unresolved != 0 {
		t.Fatalf("reconcile against the account: %v, %d unresolved", err, rec.Unresolved)
	}
	rows, _, err = ListRuns(filepath.Dir(res.RunDir))
	if err != nil || len(rows) != 1 || strings.Contains(rows[0].Cost, "?") {
		t.Errorf("runs after every unknown cost was priced: %+v, %v; want a known cost, no +?", rows, err)
	}
}

// TestMidStreamChangeRecorded: a stream whose later chunks name another
// served model and generation id than its first was recorded as the
// first chunk's, and said nowhere (issue 53). The attempt records what
// changed, and the report warns of it.
func TestMidStreamChangeRecorded(t *testing.T) {
	t.Parallel()
	set := corpusSet(t)
	mark := marker(t, set, set.Task("03-b"))
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if len(req.ResponseFormat) > 0 {
			return modeltest.Text(`{"faithful": true, "quotes": [], "reason": "stated"}`)
		}
		rep := modeltest.Text(`{"answer": "x", "evidence": []}`)
		if req.Model == "a/x" && strings.Contains(req.Messages[len(req.Messages)-1].Content, mark) {
			rep.Chunks, rep.SwitchModel, rep.SwitchID = 3, "z/cheaper", "gen-second"
		}
		return rep
	})
	srv.SetModels(modeltest.Entry("a/x"), modeltest.Entry("b/y"), modeltest.Entry("c/z"))
	o, _ := testOptions(t, []string{"a/x", "b/y", "c/z"}, srv.URL)
	res, err := Run(context.Background(), o)
	if err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}
	tr, err := transcript.Read(transcript.TaskPath(res.RunDir, "a/x", "03-b", 0))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(tr.Attempts[len(tr.Attempts)-1].Changed, "; ")
	if !strings.Contains(got, "generation id ") || !strings.Contains(got, "→ gen-second") || !strings.Contains(got, "model a/x → z/cheaper") {
		t.Errorf("the attempt records %q; want the generation id and the served model that changed", got)
	}
	i := slices.IndexFunc(res.Report.Warnings, func(w report.Warning) bool { return w.Kind == report.WarnStreamChanged })
	if i < 0 || res.Report.Warnings[i].Model != "a/x" || res.Report.Warnings[i].N != 1 || res.Report.Warnings[i].Items[0] != "03-b r0" {
		t.Errorf("warnings %+v; want a/x's 03-b named as changed mid-stream", res.Report.Warnings)
	}
}

// TestHostileListingPricesNeverPrintAnAbsurdEstimate: a listing price of
// "1e308" per token gave "est. $+Inf" and exit 0 (issue 53). A per-token
// price that is not finite or is above model.MaxTokenPrice is unknown,
// with a warning, and no estimate a price makes non-finite or negative
// is printed as an amount.
func TestHostileListingPricesNeverPrintAnAbsurdEstimate(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		name, prompt, completion, request, warn string
		reason                                  string
	}{
		{"huge", "1e308", "0.00001", "", `pricing.prompt "1e308" is above $1: read as unknown`, "the issue's price: +Inf once multiplied by tokens"},
		{"beyond-double", "0.000001", "1e400", "", `pricing.completion "1e400" is not a finite number`, "ParseFloat gives +Inf with a range error"},
		{"above-a-dollar", "2", "0.00001", "", `pricing.prompt "2" is above $1`, "no model costs $2 a token"},
		{"nan", "NaN", "0.00001", "", `pricing.prompt "NaN" is not a finite number`, "NaN compares false everywhere"},
		{"infinity", "0.000001", "Infinity", "", `pricing.completion "Infinity" is not a finite number`, "spelled out"},
		{"negative", "-1", "0.00001", "", "", "OpenRouter's -1 for a variable price: unknown, and not worth a warning"},
		{"request", "0.000001", "0.00001", "1e308", `pricing.request "1e308" is above $1`, "a per-request price of 1e308 summed over the jobs is +Inf"},
	}) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := modeltest.NewScripted(t, modeltest.Text("unused: a dry run asks nothing"))
			e := modeltest.Entry("a/x")
			e.PromptPrice, e.CompletionPrice, e.RequestPrice = c.prompt, c.completion, c.request
			srv.SetModels(e)
			o, _ := testOptions(t, []string{"a/x"}, srv.URL)
			o.Config.Judges = config.Judges{Models: []string{}}
			set, err := Select(o.Set, &transcript.Selection{Tasks: []string{"03-b", "04-b"}})
			if err != nil {
				t.Fatal(err)
			}
			o.Set = set
			o.DryRun = true
			if _, err := Run(context.Background(), o); err != nil {
				t.Fatalf("dry run: %v (%s)", err, c.reason)
			}
			out := o.Stdout.(interface{ String() string }).String()
			for _, line := range strings.Split(out, "\n") {
				if !strings.Contains(line, "est.") && !strings.Contains(line, "estimated cost") {
					continue // the warnings quote the price as listed
				}
				for _, bad := range []string{"Inf", "NaN", "$-"} {
					if strings.Contains(line, bad) {
						t.Errorf("the preflight prints %q as an estimate (%s): %s", bad, c.reason, line)
					}
				}
			}
			if !strings.Contains(out, "est. unknown") || !strings.Contains(out, "(some prices unknown)") {
				t.Errorf("the estimate is not unknown (%s):\n%s", c.reason, out)
			}
			if c.warn != "" && !strings.Contains(out, "preflight: warning: a/x: the listing's "+c.warn) {
				t.Errorf("no warning %q (%s):\n%s", c.warn, c.reason, out)
			}
		})
	}
}

// TestCreditBelowACentSaysSo: the preflight refused with "the estimated
// cost $0.00 exceeds the key's remaining credit $0.00" (issue 53), true
// and unreadable. Amounts that print alike at cents are printed to the
// hundredth of a cent, and one below a cent is called so.
func TestCreditBelowACentSaysSo(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		name         string
		total, left  float64
		want, reason string
	}{
		{"both-below-a-cent", 0.004, 0.001, "the estimated cost $0.0040 (below a cent) exceeds the key's remaining credit $0.0010 (below a cent)", "the issue's message: both printed $0.00"},
		{"alike-at-cents", 12.344, 12.341, "the estimated cost $12.3440 exceeds the key's remaining credit $12.3410", "both $12.34 at cents: shown finer, and not below a cent"},
		{"apart", 3, 1.5, "the estimated cost $3.00 exceeds the key's remaining credit $1.50", "amounts that differ at cents keep their usual form"},
	}) {
		left := c.left
		var w bytes.Buffer
		err := creditCheck(&w, &model.KeyInfo{LimitRemaining: &left}, c.total)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q (%s)", c.name, err, c.want, c.reason)
		}
	}
}
