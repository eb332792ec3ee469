package metric

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"bendscript.com/round-trip-harness/internal/golden"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/task"
)

// TestGolden pins the JSON that `harness score` prints for a few typical
// answers; regenerate with go test ./metric -update and review the diff.
func TestGolden(t *testing.T) {
	byID := map[string]*task.Task{}
	for _, tk := range tasks(t) {
		byID[tk.ID] = tk
	}
	perturbed := func(tk *task.Task, names ...string) string {
		out := tk.Expected.Clone()
		for _, n := range names {
			for _, p := range tabletest.Cases(t, perturbations) {
				if p.name == n && !p.apply(out, 0) {
					t.Fatalf("%s: %q does not apply", tk.ID, n)
				}
			}
		}
		return string(bend.Marshal(out))
	}
	for _, tc := range tabletest.Cases(t, []struct {
		name, task, raw, reason string
	}{
		{"source-unchanged", "03-c", string(byID["03-c"].Source.Bytes),
			"a model that ignores the edit: low drift, edit_applied false, the missing edge and mark listed"},
		{"fenced-with-prose", "01-b", "Here you go:\n```json\n" + string(bend.Marshal(byID["01-b"].Expected)) + "```\nDone!",
			"a correct document in a fence: drift 0, extraction fenced, the prose noted"},
		{"several-mistakes", "19-b", perturbed(byID["19-b"], "rename a block kind", "drop an edge", "add a mark", "type an untyped link as cites", "alter unrelated text"),
			"five kinds of drift at once, each in its component and its diagnostics"},
		{"namespaced-predicate-rewritten", "18-c", perturbed(byID["18-c"], "rewrite a namespaced predicate as core"),
			"vocabulary drift beside the edge drift it implies"},
		{"garbage", "05-b", "I'm sorry, I can't modify that document.",
			"no document: every component 1, valid false, with the reason"},
	}) {
		t.Run(tc.name, func(t *testing.T) {
			checkGolden(t, tc.name, score(byID[tc.task], tc.raw), tc.reason)
		})
	}
	a := byID["01-b"].Source.Doc
	checkGolden(t, "answer", ScoreAnswer(a, `{"answer": "41 species and 386 individuals", "evidence": ["blk-5e6f.spn-01", "blk-5e6f.spn-99"]}`),
		"a class A answer citing one real and one invented span")
}

func checkGolden(t *testing.T, name string, v any, reason string) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", name+".golden"), append(got, '\n'), reason)
}
