package metric

import (
	"math/rand/v2"
	"testing"

	"bendscript.com/round-trip-harness/bend"
)

// randomOutput returns the expected document of tk with up to six random
// perturbations, and how many applied.
func randomOutput(r *rand.Rand, expected *bend.Document) (*bend.Document, int) {
	out := expected.Clone()
	n := 0
	for range r.IntN(7) {
		p := perturbations[r.IntN(len(perturbations))]
		if p.raw == nil && p.apply(out, r.IntN(3)) {
			n++
		}
	}
	return out, n
}

// shuffle reorders the members of every object in v.
func shuffle(r *rand.Rand, v *bend.Value) {
	r.Shuffle(len(v.Members), func(i, j int) { v.Members[i], v.Members[j] = v.Members[j], v.Members[i] })
	for _, m := range v.Members {
		shuffle(r, m.Value)
	}
	for _, e := range v.Elems {
		shuffle(r, e)
	}
}

// TestProperties checks, on random perturbations of every expected
// document: every component and the drift lie in [0, 1]; scoring is
// deterministic (the same JSON bytes twice); and the result does not depend
// on the order of JSON members or on white space in the output.
func TestProperties(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 12))
	for _, tk := range tasks(t) {
		for range 8 {
			out, _ := randomOutput(r, tk.Expected)
			indented := string(bend.Marshal(out))
			res := score(tk, indented)
			for i, c := range res.Components.List() {
				if c < 0 || c > 1 {
					t.Fatalf("%s: component %s = %v", tk.ID, componentNames[i], c)
				}
			}
			if res.Drift < 0 || res.Drift > 1 || !res.Valid {
				t.Fatalf("%s: drift %v valid %v", tk.ID, res.Drift, res.Valid)
			}
			want := marshal(t, res)
			if again := marshal(t, score(tk, indented)); again != want {
				t.Fatalf("%s: two scores differ:\n%s\n%s", tk.ID, want, again)
			}
			v := out.Value()
			shuffle(r, v)
			if got := marshal(t, score(tk, string(bend.MarshalValue(v)))); got != want {
				t.Fatalf("%s: member order and white space change the score:\n%s\n%s", tk.ID, want, got)
			}
		}
	}
}

func TestIdenticalScoresZero(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	seen := map[string]bool{}
	for _, tk := range tasks(t) {
		d := tk.Source.Doc
		if seen[d.ID] {
			continue
		}
		seen[d.ID] = true
		v := d.Value().Clone()
		shuffle(r, v)
		res := Score(d, d, nil, string(bend.MarshalValue(v)), DefaultWeights())
		if res.Drift != 0 || res.Components != (Components{}) || !res.EditApplied || len(res.Diagnostics) != 0 {
			t.Errorf("%s against itself: %s", tk.Source.Name, marshal(t, res))
		}
	}
}

// FuzzScore feeds arbitrary answers to one task: no input may panic, every
// score lies in [0, 1], an invalid answer has drift 1, and scoring twice
// gives the same bytes. The seeds are whole documents, which Go's input
// minimizer shrinks very slowly: fuzz with
//
//	go test -run '^$' -fuzz FuzzScore -fuzzminimizetime 1x ./metric
func FuzzScore(f *testing.F) {
	ts := tasks(f)
	var tk = ts[0]
	for _, c := range ts {
		if c.ID == "19-b" {
			tk = c
		}
	}
	r := rand.New(rand.NewPCG(15, 16))
	f.Add(string(bend.Marshal(tk.Expected)))
	f.Add(string(tk.Source.Bytes))
	for range 4 {
		out, _ := randomOutput(r, tk.Expected)
		f.Add("```json\n" + string(bend.MarshalCompact(out)) + "\n```")
	}
	f.Add(`{"blocks": [{"id": "blk-1", "kind": "list", "items": [{"kind": "list-item"}]}], "edges": [{"subject": "bend:#x"}]}`)
	f.Add("~~~\n{\"blocks\": [], \"vocabulary\": 7}\n~~~")
	f.Add("not json")
	f.Fuzz(func(t *testing.T, raw string) {
		res := score(tk, raw)
		for _, c := range res.Components.List() {
			if !(c >= 0 && c <= 1) {
				t.Fatalf("component %v", res.Components)
			}
		}
		if !(res.Drift >= 0 && res.Drift <= 1) || (!res.Valid && res.Drift != 1) {
			t.Fatalf("drift %v valid %v", res.Drift, res.Valid)
		}
		if a, b := marshal(t, res), marshal(t, score(tk, raw)); a != b {
			t.Fatalf("not deterministic:\n%s\n%s", a, b)
		}
		ScoreAnswer(tk.Source.Doc, raw)
	})
}
