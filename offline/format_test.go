package offline

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/task"
)

// formatSet returns the class B/C tasks of ts as a set whose tasks ask for
// format f (ts share ids only across kinds, so one kind per set).
func formatSet(ts []*task.Task, f string) *task.Set {
	s := &task.Set{}
	for _, t := range ts {
		if t.Class == task.ClassA {
			continue
		}
		c := *t
		c.Format = f
		s.Tasks = append(s.Tasks, &c)
	}
	return s
}

func complete(t *testing.T, name string, s *task.Set, id string, seed int64, given []byte) string {
	t.Helper()
	m, err := New(name, s)
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Complete(context.Background(), model.Request{Model: name, TaskID: id, Seed: new(seed), Document: given})
	if err != nil {
		t.Fatal(err)
	}
	return r.Content
}

func loadSet(t *testing.T) *task.Set {
	t.Helper()
	set, probs := task.Load(corpus.FS, instructions.FS)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	return set
}

// patchFormats are the formats other than the whole document.
func patchFormats() []string {
	var out []string
	for _, f := range formats.Table {
		if f.Name != formats.Document {
			out = append(out, f.Name)
		}
	}
	return out
}

// sameDocument reports whether out is the document d, canonically.
func sameDocument(out []byte, d *bend.Document) bool {
	got, err := bend.Parse(out)
	if err != nil {
		return false
	}
	a, _ := bend.Canonical(got)
	b, _ := bend.Canonical(d)
	return bytes.Equal(a, b)
}

// TestOracleAnswersEveryFormat: offline/oracle's patch answers apply to the
// source and give the expected document (the natural tasks: with the
// model's own new ids), scored drift 0; offline/identity's leave the
// document as it was ([] in the JSON formats).
func TestOracleAnswersEveryFormat(t *testing.T) {
	set := loadSet(t)
	w := metric.DefaultWeights()
	for _, f := range patchFormats() {
		for kind, ts := range map[string][]*task.Task{"gating": set.Tasks, "natural": set.Natural} {
			s := formatSet(ts, f)
			for _, tk := range s.Tasks {
				ans := complete(t, Oracle, s, tk.ID, 1, nil)
				out, fail := formats.Lookup(f).Apply(tk.Source.Bytes, ans)
				if fail != nil {
					t.Errorf("%s %s %s: %v", f, kind, tk.ID, fail)
					continue
				}
				if kind == "natural" {
					// The oracle's own ids, not the default names.
					if len(tk.Names) > 0 && !bytes.Contains(out, []byte("-mine")) {
						t.Errorf("%s natural %s: the answer uses the gold's default names", f, tk.ID)
					}
					continue
				}
				if r := metric.Score(tk.Source.Doc, tk.Expected, tk.GoldEdit, string(out), w); r.Drift != 0 || !r.EditApplied {
					t.Errorf("%s %s: oracle drift %v, edit applied %v", f, tk.ID, r.Drift, r.EditApplied)
				}
				id := complete(t, Identity, s, tk.ID, 1, nil)
				if out, fail := formats.Lookup(f).Apply(tk.Source.Bytes, id); fail != nil || !sameDocument(out, tk.Source.Doc) {
					t.Errorf("%s %s: identity answered %s (%v), which does not leave the document", f, tk.ID, id, fail)
				}
			}
		}
	}
}

// TestNaturalOracleMatchesItsDocumentAnswer: in every format the natural
// oracle gives the same document as its document answer (same new ids).
func TestNaturalOracleMatchesItsDocumentAnswer(t *testing.T) {
	set := loadSet(t)
	doc := formatSet(set.Natural, "")
	for _, f := range patchFormats() {
		s := formatSet(set.Natural, f)
		for _, tk := range s.Tasks {
			want, err := bend.Parse([]byte(complete(t, Oracle, doc, tk.ID, 1, nil)))
			if err != nil {
				t.Fatal(err)
			}
			out, fail := formats.Lookup(f).Apply(tk.Source.Bytes, complete(t, Oracle, s, tk.ID, 1, nil))
			if fail != nil {
				t.Fatalf("%s %s: %v", f, tk.ID, fail)
			}
			got, _ := bend.Parse(out)
			a, _ := bend.Canonical(got)
			b, _ := bend.Canonical(want)
			if !bytes.Equal(a, b) {
				t.Errorf("%s natural %s: the patch answer is not the document answer", f, tk.ID)
			}
		}
	}
}

// TestNoisySlipsInItsFormat: offline/noisy is deterministic per seed,
// makes format slips (answers that fail or drift) at roughly its rates,
// more at noisy-high than noisy-low, and sometimes fences its patch.
func TestNoisySlipsInItsFormat(t *testing.T) {
	const seeds = 2 // enough to order the levels (0 < low < noisy < high with room); each seed is 120 answers per format
	set := loadSet(t)
	for _, f := range patchFormats() {
		s := formatSet(set.Tasks, f)
		wrong := map[string]int{}
		fenced := 0
		for _, level := range []string{NoisyLow, Noisy, NoisyHigh} {
			for seed := int64(1); seed <= seeds; seed++ {
				for _, tk := range s.Tasks {
					ans := complete(t, level, s, tk.ID, seed, nil)
					if seed == 1 && ans != complete(t, level, s, tk.ID, seed, nil) {
						t.Fatalf("%s %s %s: not deterministic", f, level, tk.ID)
					}
					if strings.HasPrefix(ans, "Here is the patch") {
						fenced++
					}
					out, fail := formats.Lookup(f).Apply(tk.Source.Bytes, ans)
					if fail != nil {
						wrong[level]++
						continue
					}
					d, err := bend.Parse(out)
					a, _ := bend.Canonical(d)
					b, _ := bend.Canonical(tk.Expected)
					if err != nil || !bytes.Equal(a, b) {
						wrong[level]++
					}
				}
			}
		}
		n := seeds * len(s.Tasks)
		t.Logf("%s: wrong answers low %d, noisy %d, high %d of %d each; %d fenced", f, wrong[NoisyLow], wrong[Noisy], wrong[NoisyHigh], n, fenced)
		if !(wrong[NoisyLow] < wrong[Noisy] && wrong[Noisy] < wrong[NoisyHigh]) || wrong[NoisyLow] == 0 {
			t.Errorf("%s: wrong answers %v of %d per level: want 0 < low < noisy < high", f, wrong, n)
		}
		if fenced == 0 {
			t.Errorf("%s: no fenced answer", f)
		}
	}
}

// TestDocumentFormatUnchanged: a task whose format is named "document"
// is answered exactly as one with no format, by every model; an unknown
// format is refused.
func TestDocumentFormatUnchanged(t *testing.T) {
	set := loadSet(t)
	plain, named := formatSet(set.Tasks, ""), formatSet(set.Tasks, formats.Document)
	for _, name := range []string{Oracle, Identity, Noisy, NoisyLow, NoisyHigh} {
		for _, tk := range plain.Tasks {
			a, b := complete(t, name, plain, tk.ID, 3, nil), complete(t, name, named, tk.ID, 3, nil)
			if a != b {
				t.Errorf("%s %s: format \"document\" answers differently", name, tk.ID)
			}
			if want := map[string]string{Oracle: string(bend.Marshal(tk.Expected)), Identity: string(tk.Source.Bytes)}[name]; want != "" && b != want {
				t.Errorf("%s %s: not the document answer", name, tk.ID)
			}
		}
	}
	bad := formatSet(set.Tasks[:3], "yaml")
	m, _ := New(Oracle, bad)
	if _, err := m.Complete(context.Background(), model.Request{TaskID: bad.Tasks[0].ID}); err == nil || !strings.Contains(err.Error(), `"yaml"`) {
		t.Errorf("unknown format: %v", err)
	}
}

// TestRelayStepAnswersTheGivenDocument: a relay step's patch is written
// against the document the model was handed, not the task's source.
func TestRelayStepAnswersTheGivenDocument(t *testing.T) {
	set := loadSet(t)
	// Step 2 of a chain: handed 02-b's expected document with a block
	// inserted first (so that every top-level index moved), asked for 02-c.
	first, err := edit.Parse([]byte(`[{"op":"insert_block","after":"","parent":"","block":{"id":"blk-0000","kind":"divider"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	d, err := edit.Apply(set.Task("02-b").Expected, first)
	if err != nil {
		t.Fatal(err)
	}
	given := bend.Marshal(d)
	next := *set.Task("02-c")
	if next.Expected, err = edit.Apply(d, next.GoldEdit); err != nil {
		t.Fatal(err)
	}
	next.Step = 2
	for _, f := range patchFormats() {
		c := next
		c.Format = f
		s := &task.Set{Tasks: []*task.Task{&c}}
		for _, name := range []string{Oracle, Noisy} {
			ans := complete(t, name, s, c.ID, 1, given)
			out, fail := formats.Lookup(f).Apply(given, ans)
			if name == Noisy {
				continue // it may slip; it must only answer
			}
			if fail != nil {
				t.Fatalf("%s %s: %v", f, name, fail)
			}
			got, _ := bend.Parse(out)
			a, _ := bend.Canonical(got)
			b, _ := bend.Canonical(c.Expected)
			if !bytes.Equal(a, b) {
				t.Errorf("%s %s: the step's answer does not give its expected document from the given one", f, name)
			}
		}
	}
}
