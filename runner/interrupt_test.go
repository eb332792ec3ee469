package runner_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/transcript"
)

// TestInterruptedStreamsArchivedAndResumed: a run cancelled (as by
// SIGINT) with streams in flight closes each stream (the fake stops
// billing it), archives each as interrupted with its generation id and
// what arrived; the resume asks exactly those jobs again, none already
// answered, and names them with the generation ids that may have been
// paid.
func TestInterruptedStreamsArchivedAndResumed(t *testing.T) {
	set, _ := load(t)
	tasks := set.Tasks[:6]
	slow := map[string]bool{}
	for _, tk := range tasks[:3] {
		slow[tk.ID] = true
	}
	want := tasks[0].ID + " " + tasks[1].ID + " " + tasks[2].ID
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if slow[taskOf(req)] && req.Header.Get("X-Phase") != "resume" {
			return modeltest.Reply{Content: "{} and more", Chunks: 2, SilentAfter: 1}
		}
		return modeltest.Text("{}")
	})
	var sl sleeps
	reads := modeltest.WatchReads(t)
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey), model.WithMaxRetries(0), model.WithSleep(sl.sleep))
	dir := t.TempDir()
	jobs := answerJobs(t, []string{"m1"}, tasks, 1, 1)
	ctx, cancel := context.WithCancel(context.Background())
	r := &runner.Runner{Clients: map[string]model.Client{"m1": c}, Dir: dir, PerModel: 6, Global: 6, JobTimeout: time.Minute}
	go func() {
		// The signal comes once the client has read the three quick
		// answers to their end and the first chunk of each slow stream.
		// (50 ms after the fake had sent the answers and had the
		// requests let a loaded machine signal before the client read a
		// chunk, and archive no generation id, or an answer, and archive
		// it as interrupted.)
		srv.WaitBilling(t, func(b modeltest.Billing) bool { return b.Completed == 3 && srv.Count() == 6 }, "three answers")
		reads.Wait(t, 3, "data: [DONE]")
		reads.Wait(t, 3, `"content":"{} an"`)
		cancel()
	}()
	if _, err := r.Drain(ctx, jobs); !errors.Is(err, context.Canceled) {
		t.Fatalf("Drain = %v, want context.Canceled", err)
	}
	srv.WaitBilling(t, func(b modeltest.Billing) bool { return b.Closed == 3 && b.Completed == 3 }, "three streams closed (billing stopped), three answers completed")
	if interrupted := interruptedTasks(t, jobs, dir); strings.Join(interrupted, " ") != want {
		t.Fatalf("interrupted %v, want the three slow streams", interrupted)
	}

	c2 := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey),
		model.WithHeaders(map[string]string{"X-Phase": "resume"}), model.WithSleep(sl.sleep))
	r2 := &runner.Runner{Clients: map[string]model.Client{"m1": c2}, Dir: dir, PerModel: 6, Global: 6, JobTimeout: time.Minute}
	tally, err := r2.Drain(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	var resumed []string
	for _, req := range srv.Requests() {
		if req.Header.Get("X-Phase") == "resume" {
			resumed = append(resumed, taskOf(req))
		}
	}
	slices.Sort(resumed)
	if strings.Join(resumed, " ") != want || tally.Reused != 3 {
		t.Errorf("the resume asked %v and reused %d; want exactly the three interrupted jobs asked, none answered", resumed, tally.Reused)
	}
	if len(tally.Reasked) != 3 || len(tally.Reasked[0].IDs) != 1 || !strings.HasPrefix(tally.Reasked[0].IDs[0], "gen-") || !strings.Contains(tally.Reasked[0].Path, tasks[0].ID) {
		t.Errorf("reasked %+v; want the three jobs with the generation id each may have been paid for", tally.Reasked)
	}
}

// interruptedTasks reads every job's transcript (each was sent, so each
// is archived) and lists, sorted, the tasks of those that did not answer,
// checking each is archived as interrupted with its generation id and
// what arrived ("{} an").
func interruptedTasks(t *testing.T, jobs []runner.Job, dir string) []string {
	t.Helper()
	var interrupted []string
	for _, j := range jobs {
		tr, err := transcript.Read(j.Path(dir))
		if err != nil {
			t.Fatalf("%s: %v: every job was sent, and each is archived", j.Record.TaskID, err)
		}
		if tr.OK() {
			continue
		}
		a := tr.Attempts[len(tr.Attempts)-1]
		if tr.Error.Code != transcript.CodeInterrupted || !a.Interrupted || !strings.HasPrefix(a.GenerationID, "gen-") || tr.Response == nil || !strings.Contains(string(tr.Response.RawBody), `"{} an"`) || tr.Response.Content != "{} an" {
			t.Errorf("%s: error %+v, attempt %+v; want interrupted, with the generation id and what arrived", tr.TaskID, tr.Error, a)
		}
		interrupted = append(interrupted, tr.TaskID)
	}
	slices.Sort(interrupted)
	return interrupted
}

// TestSilentStreamArchived: a stream that goes silent past the idle
// timeout is closed (the fake stops billing it) and, its retries spent,
// archived with the generation id of each attempt and what arrived; an
// answer that streams for longer than the idle timeout, in chunks and
// keep-alive comments, completes and is archived as an answer.
func TestSilentStreamArchived(t *testing.T) {
	set, _ := load(t)
	tasks := set.Tasks[:2]
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if taskOf(req) == tasks[0].ID {
			return modeltest.Reply{Content: "{} and", Chunks: 2, SilentAfter: 1}
		}
		return modeltest.Reply{Content: "{}", Chunks: 2, ChunkDelay: 1600 * time.Millisecond, KeepAlive: 100 * time.Millisecond}
	})
	var sl sleeps
	// The idle timeout also bounds each stream's first chunk, and a gap
	// between keep-alives: 3 s leaves a loaded machine room (at 400 ms a
	// slow start would cost the silent attempt its generation id; a
	// starved core stalled a stream past 600 ms), and the slow answer's
	// 3.2 s of chunks still outlast it.
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey), model.WithMaxRetries(1),
		model.WithIdleTimeout(3*time.Second), model.WithSleep(sl.sleep))
	dir := t.TempDir()
	jobs := answerJobs(t, []string{"m1"}, tasks, 1, 1)
	r := &runner.Runner{Clients: map[string]model.Client{"m1": c}, Dir: dir, PerModel: 2, Global: 2, JobTimeout: time.Minute}
	if _, err := r.Drain(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
	silent, err := transcript.Read(jobs[0].Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if silent.Error == nil || silent.Error.Code != model.CodeIdle || len(silent.Attempts) != 2 || silent.Error.Scope != "retry" {
		t.Fatalf("silent job: error %+v, %d attempts; want an idle timeout after two attempts", silent.Error, len(silent.Attempts))
	}
	for _, a := range silent.Attempts {
		if !strings.HasPrefix(a.GenerationID, "gen-") || a.Status != 200 {
			t.Errorf("attempt %+v: want its generation id", a)
		}
	}
	if silent.Response == nil || !strings.Contains(string(silent.Response.RawBody), `"{} "`) {
		t.Errorf("silent job's response %+v; want what arrived", silent.Response)
	}
	slow, err := transcript.Read(jobs[1].Path(dir))
	if err != nil || !slow.OK() || slow.Response.Content != "{}" {
		t.Errorf("slow job: %v %+v; want the answer, 3.2 s of chunks and keep-alives under a 3 s idle timeout", err, slow)
	}
	srv.WaitBilling(t, func(b modeltest.Billing) bool { return b.Closed == 2 && b.Completed == 1 }, "both silent attempts closed, the slow answer completed")
}
