package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// askedTask is the task a request asks, read from its first user message
// (a feedback round's last message is the feedback), and its round: how
// many answers the conversation already holds.
func askedTask(req modeltest.ChatRequest) (string, int) {
	m := regexp.MustCompile(`Task ([0-9a-z-]+) \(`).FindStringSubmatch(req.Messages[1].Content)
	if m == nil {
		return "", 0
	}
	return m[1], (len(req.Messages) - 2) / 2
}

// TestFeedbackRound is issue 35's done-when for --feedback 1 against the
// fake server: a model whose first answer is malformed (prose, no
// document) and whose second is exact is counted well-formed 0% and
// lossless 0% at the first try, lossless 100% after feedback; the
// follow-up request holds the conversation and the failure message alone,
// not the expected document; a killed run resumes without asking a
// finished round again; rescore reproduces the report.
func TestFeedbackRound(t *testing.T) {
	t.Parallel()
	set := tasktest.Set(t)
	ids := []string{"01-b", "01-c", "02-b", "02-c"}
	expected := map[string]string{}
	for _, id := range ids {
		expected[id] = string(bend.Marshal(set.Task(id).Expected))
	}
	const malformed = "I would make that change to the paragraph."
	ctx, interrupt := interruptAt(5)
	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
		interrupt(call)
		id, round := askedTask(req)
		if round == 0 {
			return modeltest.Reply{Content: malformed, Delay: 5 * time.Millisecond}
		}
		return modeltest.Reply{Content: expected[id], Delay: 5 * time.Millisecond}
	})
	srv.SetModels(modeltest.Entry("vendor/a"))
	dir := t.TempDir()
	args := []string{"run", "--feedback", "1", "--docs", "01,02", "--classes", "b,c", "--config", "../../harness.yaml",
		"--models", "vendor/a", "--judges", "offline/judge", "--out", dir, "--reports", dir, "--run-id", "k", "--progress", "none", "--per-model", "1", "--base-url", srv.URL}
	var out, errb bytes.Buffer
	err := run(ctx, args, &out, &errb)
	runDir := filepath.Join(dir, "k")
	if exitCode(err) != 2 {
		t.Fatalf("interrupted run: exit %d: %s", exitCode(err), errb.String())
	}
	kept := keptRounds(t, runDir)
	if len(kept) == 0 || len(kept) >= 2*len(ids) {
		t.Fatalf("%d jobs finished (%v); the test needs a partial run", len(kept), kept)
	}
	before := srv.Count()
	out.Reset()
	errb.Reset()
	if err := run(context.Background(), []string{"run", "--resume", runDir, "--progress", "none", "--base-url", srv.URL}, &out, &errb); exitCode(err) > 1 {
		t.Fatalf("resume: exit %d: %s", exitCode(err), errb.String())
	}
	checkResumeAsked(t, srv.Requests()[before:], func(req modeltest.ChatRequest) string {
		id, round := askedTask(req)
		return fmt.Sprintf("%s %d", id, round)
	}, kept, 2*len(ids))
	checkFollowUps(t, srv.Requests(), expected, malformed)
	fresh, _ := os.ReadFile(filepath.Join(dir, "k.json"))
	checkFeedbackRow(t, fresh, len(ids))
	md, _ := os.ReadFile(filepath.Join(dir, "k.md"))
	if !bytes.Contains(md, []byte("| well-formed 1st try | applied 1st try | lossless 1st try | well-formed after feedback | feedback rounds |")) ||
		bytes.Count(md, []byte("| 0.0% | 0.0% | 0.0% | 100.0% | 2 |")) != 2 {
		t.Error("the Markdown report's format table has no feedback columns")
	}
	if _, errs, code := runCLI(t, "rescore", "--out", filepath.Join(dir, "re"), runDir); code > 1 {
		t.Fatalf("rescore: exit %d: %s", code, errs)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "re", "k.json"))
	if !bytes.Equal(report.StripRescoredAt(again), fresh) {
		t.Error("rescore does not reproduce the report of a run with feedback rounds")
	}
	// compare pairs the first tries and the rounds of the two reports.
	cmpOut, cmpErrs, code := runCLI(t, "compare", filepath.Join(dir, "k.json"), filepath.Join(dir, "re", "k.json"))
	if code != 0 || !strings.Contains(cmpOut, "well-formed 1st try old → new") || !strings.Contains(cmpOut, "0.0% → 0.0%") || !strings.Contains(cmpOut, "2 → 2") {
		t.Errorf("compare of the feedback run: exit %d, no feedback table:\n%s%s", code, cmpOut, cmpErrs)
	}
}

// interruptAt returns a context and a func that a fake's handler calls
// with each request's number: the context is cancelled when the n-th
// request arrives, before it is answered, which kills a run part-way at
// a point no load can move. (A goroutine that polled the request count
// and cancelled after it could be late on a loaded machine, while the
// run went on to finish.)
func interruptAt(n int) (context.Context, func(call int)) {
	ctx, cancel := context.WithCancel(context.Background())
	return ctx, func(call int) {
		if call >= n {
			cancel()
		}
	}
}

// keptRounds are the (task, round) answers archived in runDir, by key
// "id round".
func keptRounds(t *testing.T, runDir string) map[string]bool {
	t.Helper()
	files := answered(t, filepath.Join(runDir, "vendor_a", "*.json"))
	out := map[string]bool{}
	for _, f := range files {
		id, round := strings.TrimSuffix(filepath.Base(f), ".r0.json"), 0
		if before, ok := strings.CutSuffix(id, ".fb1"); ok {
			id, round = before, 1
		}
		out[fmt.Sprintf("%s %d", id, round)] = true
	}
	return out
}

// checkFollowUps: every follow-up request is the first request, the
// model's answer and one user message holding the failure the harness
// found (scoring.Check of that answer) and nothing else.
func checkFollowUps(t *testing.T, reqs []modeltest.ChatRequest, expected map[string]string, malformed string) {
	t.Helper()
	set := tasktest.Set(t)
	n := 0
	for _, req := range reqs {
		id, round := askedTask(req)
		if round != 1 {
			continue
		}
		n++
		m := req.Messages
		problem := scoring.Check(set.Task(id), set.Task(id).Source.Bytes, malformed)
		if len(m) != 4 || m[2].Role != "assistant" || m[2].Content != malformed || m[3].Role != "user" ||
			m[3].Content != jobs.FeedbackHead+problem+jobs.FeedbackTail || problem == "" {
			t.Errorf("%s: follow-up messages %d, answer %q, feedback %q; want the answer and the failure %q", id, len(m), m[2].Content, m[3].Content, problem)
		}
		if bytes.Contains(req.Body, []byte(jsonString(expected[id]))) {
			t.Errorf("%s: the follow-up request holds the expected document", id)
		}
	}
	if n == 0 {
		t.Error("no follow-up request")
	}
}

// jsonString is s as it stands inside a JSON request body, without its
// quotes.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// checkFeedbackRow: the document row counts every first try malformed and
// every answer lossless after one round each.
func checkFeedbackRow(t *testing.T, b []byte, n int) {
	t.Helper()
	rep, err := report.ReadJSON(bytes.NewReader(b), "k.json")
	if err != nil {
		t.Fatal(err)
	}
	rows := formatRows(rep)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want the whole document's of classes B and C", len(rows))
	}
	scored, rounds := 0, 0
	for _, row := range rows {
		zero, one := 0.0, 1.0
		for _, c := range tabletest.Cases(t, []struct {
			name      string
			got, want *float64
			reason    string
		}{{"well-formed first try", row.WellFormedFirst, &zero, "every first try is malformed, and the row counts each"},
			{"lossless first try", row.LosslessFirst, &zero, "a malformed first try is not lossless"},
			{"well-formed after feedback", row.WellFormedAfter, &one, "one round of feedback fixes every answer"},
			{"lossless after feedback", row.Lossless, &one, "the fixed answers are lossless, so feedback's effect shows in the row"}}) {
			if c.got == nil || *c.got != *c.want {
				t.Errorf("class %s, %s: %v, want %v (%s)", row.Class, c.name, c.got, *c.want, c.reason)
			}
		}
		if row.Format != "document" {
			t.Errorf("class %s in %s, want the whole document", row.Class, row.Format)
		}
		scored, rounds = scored+row.Scored, rounds+row.FeedbackRounds
	}
	if scored != n || rounds != n {
		t.Errorf("%d answers scored after %d rounds, want %d and %d", scored, rounds, n, n)
	}
}

// TestFeedbackRelay: in the relay, a step whose answer is not well-formed
// waits for its feedback rounds and hands on the last round's document, so
// no chain ends at a repaired step: with two rounds, offline/noisy's
// search-replace chains run every step and some step was repaired.
func TestFeedbackRelay(t *testing.T) {
	t.Parallel()
	rows := runFormats(t, "relay", "--steps", "4", "--formats", "search-replace", "--feedback", "2", "--models", "offline/noisy")
	if len(rows) != 4 {
		t.Fatalf("%d rows, want one per step", len(rows))
	}
	rounds := 0
	for _, r := range rows {
		rounds += r.FeedbackRounds
		if r.Scored != r.Planned || r.Invalid != 0 {
			t.Errorf("step %d: %d of %d scored, %d invalid; want every step scored and valid", r.Step, r.Scored, r.Planned, r.Invalid)
		}
	}
	if rounds == 0 {
		t.Error("no feedback round was asked; want some step repaired")
	}
}

// TestFeedbackFlag: --feedback takes 0 to 3, the run says its rounds are
// not in the estimate, and a resume may not change the rounds its run
// asked.
func TestFeedbackFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	common := []string{"--models", "offline/oracle", "--judges", "offline/judge", "--docs", "01", "--no-preflight", "--progress", "none", "--out", dir, "--reports", dir}
	for _, n := range []string{"-1", "4"} {
		if _, errs, code := runCLI(t, append([]string{"run", "--feedback", n}, common...)...); code != 2 || !strings.Contains(errs, "--feedback takes a whole number from 0 to 3") {
			t.Errorf("--feedback %s: exit %d: %s", n, code, errs)
		}
	}
	out, errs, code := runCLI(t, append([]string{"run", "--feedback", "2", "--run-id", "f"}, common...)...)
	if code > 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "run: up to 2 feedback rounds per class B/C answer") {
		t.Errorf("the run does not say that rounds are not estimated:\n%s", out)
	}
	if _, errs, code := runCLI(t, "run", "--resume", filepath.Join(dir, "f"), "--feedback", "1", "--progress", "none"); code != 2 || !strings.Contains(errs, `--feedback "1" contradicts`) {
		t.Errorf("a resume changing --feedback: exit %d: %s", code, errs)
	}
}
