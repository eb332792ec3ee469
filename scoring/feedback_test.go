package scoring

import (
	"math/rand/v2"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// TestProblem: what a feedback round tells the model is the mechanical
// failure alone: the applier's, the extraction's or the validator's, with
// JSON pointers; nothing for a well-formed answer, even a lossy one.
func TestProblem(t *testing.T) {
	set := tasktest.Set(t).WithFormats([]string{"", formats.JSONPatch})
	doc, patch := set.Task("02-b"), set.Task("02-b."+formats.JSONPatch)
	expected := string(bend.Marshal(doc.Expected))
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		t      *task.Task
		answer string
		want   string // a part of the problem; "" for none
		reason string
	}{
		{"exact", doc, expected, "", "a correct answer gets no feedback"},
		{"lossy but well-formed", doc, string(doc.Source.Bytes), "", "an answer that is well formed but leaves the edit undone gets none either: feedback is about mechanical failure, never drift"},
		{"prose", doc, "I made the change.", "not JSON", "an answer with no JSON is told so"},
		{"invalid document", doc, strings.Replace(expected, `"kind": "paragraph"`, `"kind": "heading"`, 1), "/blocks/", "a document that fails validation is told where, by JSON pointer"},
		{"patch that fails", patch, `[{"op":"remove","path":"/blocks/99"}]`, "json-patch: operation 0", "a patch that does not apply is told which operation failed, under its format's name"},
	}) {
		got := Check(c.t, c.t.Source.Bytes, c.answer)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: problem %q, want one holding %q (%s)", c.name, got, c.want, c.reason)
		}
		if strings.Contains(got, "drift") || strings.Contains(got, "lossless") || strings.Contains(got, expected[:200]) {
			t.Errorf("%s: the problem tells more than the failure: %q", c.name, got)
		}
	}
}

// TestWithRounds: a score with feedback rounds is the last round's answer,
// keeps the first try's numbers, counts the rounds, links the last round's
// transcript and adds up what every round cost; rounds after a well-formed
// answer are not read.
func TestWithRounds(t *testing.T) {
	set := tasktest.Set(t)
	tk := set.Task("02-b")
	w := config.Default().Weights
	cost := func(c float64) *float64 { return &c }
	tr := func(id, content string, c float64) *transcript.Transcript {
		return &transcript.Transcript{Kind: transcript.KindTask, Model: "m", TaskID: id, Class: tk.Class, Attempts: []transcript.Attempt{{Number: 1}},
			Response: &transcript.Response{Content: content, FinishReason: "stop", LatencyMS: 10, Usage: transcript.Usage{CompletionTokens: 5, Cost: cost(c)}}}
	}
	src := memory([]*transcript.Transcript{tr(tk.ID, "no", 0.5), tr(task.FeedbackID(tk.ID, 1), "still no", 0.25), tr(task.FeedbackID(tk.ID, 2), string(bend.Marshal(tk.Expected)), 0.125)})
	scores, err := Stream(set, Plan{Models: []string{"m"}, TaskIDs: []string{tk.ID}, Repeats: 1, Feedback: 3}, src, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := scores[0]
	if s.Rounds != 2 || s.FirstTry == nil || s.FirstTry.WellFormed || s.FirstTry.Lossless || s.FirstTry.Problem == "" {
		t.Fatalf("rounds %d, first try %+v; want 2 rounds after a malformed first try", s.Rounds, s.FirstTry)
	}
	if !s.WellFormed() || !s.Metric.Lossless || s.Transcript != "m/02-b.fb2.r0.json" {
		t.Errorf("well-formed %v, lossless %v, transcript %s; want the last round's exact answer", s.WellFormed(), s.Metric.Lossless, s.Transcript)
	}
	if s.Usage.Cost == nil || *s.Usage.Cost != 0.875 || s.Usage.CompletionTokens != 15 || s.LatencyMS != 30 || s.Attempts != 3 {
		t.Errorf("usage %+v, latency %d, attempts %d; want every round's added up", s.Usage, s.LatencyMS, s.Attempts)
	}
	// A round after a well-formed one is not the run's: a rescore does not
	// read it, as a run would not have asked it.
	stale := memory([]*transcript.Transcript{tr(tk.ID, "no", 0.5), tr(task.FeedbackID(tk.ID, 1), string(bend.Marshal(tk.Expected)), 0.25), tr(task.FeedbackID(tk.ID, 2), "no", 0.125)})
	if got, _ := Stream(set, Plan{Models: []string{"m"}, TaskIDs: []string{tk.ID}, Repeats: 1, Feedback: 3}, stale, w, nil); got[0].Rounds != 1 || !got[0].Metric.Lossless {
		t.Errorf("rounds %d, lossless %v: want the well-formed round 1 scored", got[0].Rounds, got[0].Metric.Lossless)
	}
	none, _ := Stream(set, Plan{Models: []string{"m"}, TaskIDs: []string{tk.ID}, Repeats: 1}, src, w, nil)
	if none[0].FirstTry != nil || none[0].Rounds != 0 {
		t.Errorf("without feedback rounds: first try %+v, rounds %d; want none recorded", none[0].FirstTry, none[0].Rounds)
	}
}

// TestCheckAgreesWithMetric: Check reads only an answer's form
// (metric.Validity), where the score phase scores it whole (Metric); the
// two must say the same problem of every answer, or a rescore would read
// other rounds than the run asked. Every corpus task's class B and C, in
// every format, with the oracle's answer, a format slip, the answer cut
// in half, prose, and a document whose first block lost its id.
func TestCheckAgreesWithMetric(t *testing.T) {
	set := tasktest.Set(t).WithFormats(formats.Names())
	r := rand.New(rand.NewPCG(45, 45))
	n := 0
	for _, tk := range set.Tasks {
		if tk.Class == task.ClassA {
			continue
		}
		form := formats.Lookup(tk.Format)
		answer, err := form.Answer(tk.Source.Bytes, tk.Expected, tk.GoldEdit)
		if err != nil {
			t.Fatal(err)
		}
		slipped, _ := form.Slip(answer, r)
		broken := strings.Replace(string(bend.Marshal(tk.Expected)), `"id": "blk-`, `"idx": "blk-`, 1)
		for _, raw := range []string{answer, slipped, answer[:len(answer)/2], "I would change the paragraph.", broken, ""} {
			res, fail := Metric(tk, tk.Source.Bytes, raw, config.Default().Weights)
			if want, got := Problem(&res, fail), Check(tk, tk.Source.Bytes, raw); got != want {
				t.Fatalf("%s: Check says %q, the score phase %q, of %.80q", tk.ID, got, want, raw)
			}
			n++
		}
	}
	if n < 500 {
		t.Errorf("only %d answers checked", n)
	}
}
