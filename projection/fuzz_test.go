package projection_test

import (
	"bytes"
	"testing"

	"bendscript.com/round-trip-harness/projection"
	"bendscript.com/round-trip-harness/projection/projectiontest"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// FuzzParse is seeded with the projection of every corpus document. No
// input may panic; anything Parse accepts must render (Render accepts
// every document Parse makes), and parse back to the same document
// (§8.1.1's parse → serialize → parse, for the projection). Under plain
// go test it runs its seeds as a unit test.
func FuzzParse(f *testing.F) {
	for _, d := range tasktest.Set(f).Documents {
		text, err := projection.Render(d.Doc)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Add("---\n---\n")
	// Seeds written by hand, so that they hold what the renderer of the
	// day may get wrong: a backslash, a line break, a tombstone with an
	// empty marks list, a vocabulary kind with an unexpressed level.
	f.Add("---\nbendscript: \"0.1\"\n---\n\n[]{#s text=null marks=[]}[a\\\\b\\\n_c_]{#t} {#b .x level=7}\n")
	// The nesting edge: an empty innermost quote or item one level past
	// MaxNesting (a panic the fuzzer had not found in 20 s).
	f.Add(projectiontest.Quotes(projection.MaxNesting + 1))
	f.Add(projectiontest.List(projection.MaxNesting + 1))
	f.Fuzz(func(t *testing.T, text string) {
		d, err := projection.Parse(text)
		if err != nil {
			return
		}
		again, err := projection.Render(d)
		if err != nil {
			t.Fatalf("Parse accepted a text that does not render back: %v\n%q", err, text)
		}
		d2, err := projection.Parse(again)
		if err != nil {
			t.Fatalf("the rendering of an accepted text does not parse: %v\n%s", err, again)
		}
		if a, b := bend.Marshal(d), bend.Marshal(d2); !bytes.Equal(a, b) {
			t.Fatalf("parse → render → parse changed the document:\n%s\n%s", a, b)
		}
	})
}
