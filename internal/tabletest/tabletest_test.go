package tabletest

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// fakeTB records what Cases or Map would report to a real test. Fatalf
// ends the calling goroutine, as testing.T's does, so that a test can watch
// the helper refuse a table without failing itself.
type fakeTB struct {
	testing.TB // nil: calling anything not overridden here panics
	fatal      string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// observe runs check against a fakeTB on its own goroutine and returns the
// Fatalf message, or "" when check returned normally.
func observe(check func(testing.TB)) string {
	f := &fakeTB{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		check(f)
	}()
	wg.Wait()
	return f.fatal
}

type proper struct {
	name   string
	in     int
	reason string
}

type unnamed struct {
	in     int
	reason string
}

type noReason struct {
	name string
	note string
}

type numericReason struct {
	name   string
	reason int
}

func TestCases(t *testing.T) {
	cases := []struct {
		name  string
		check func(testing.TB)
		// want are fragments of the Fatalf message; none means no failure.
		want   []string
		reason string
	}{
		{
			name: "proper table",
			check: func(tb testing.TB) {
				Cases(tb, []proper{{name: "a", reason: "guards a"}, {name: "b", reason: "guards b"}})
			},
			reason: "a table whose every case has a reason must pass through untouched, or no table test could run",
		},
		{
			name: "empty reason",
			check: func(tb testing.TB) {
				Cases(tb, []proper{{name: "a", reason: "guards a"}, {name: "b"}, {name: "c", reason: " \t"}})
			},
			want:   []string{`cases[1] ("b")`, `cases[2] ("c")`, "no reason", "habit 8"},
			reason: "a case with an empty or blank reason is the failure the package exists for, and every such case is named at once",
		},
		{
			name: "named by index",
			check: func(tb testing.TB) {
				Cases(tb, []unnamed{{in: 1, reason: "guards 1"}, {in: 2}})
			},
			want:   []string{"cases[1]: no reason"},
			reason: "a case without a name field must still be findable, by its index",
		},
		{
			name: "no reason field",
			check: func(tb testing.TB) {
				Cases(tb, []noReason{{name: "a", note: "a note is not a reason"}})
			},
			want:   []string{"tabletest.noReason has no field reason"},
			reason: "a case type without the field at all (a why, a note, or nothing) is refused, so that there is one field name",
		},
		{
			name: "reason not a string",
			check: func(tb testing.TB) {
				Cases(tb, []numericReason{{name: "a", reason: 1}})
			},
			want:   []string{"field reason is int, not a string"},
			reason: "a reason is a sentence, so a field of another type is refused rather than read as empty",
		},
		{
			name: "not a struct",
			check: func(tb testing.TB) {
				Cases(tb, []string{"a", "b"})
			},
			want:   []string{"case type string is not a struct"},
			reason: "a list of bare values cannot carry reasons, so passing one to Cases is a mistake to report, not to wave through",
		},
		{
			name: "pointers to cases",
			check: func(tb testing.TB) {
				Cases(tb, []*proper{{name: "a", reason: "guards a"}, {name: "b"}, nil})
			},
			want:   []string{`cases[1] ("b")`, "cases[2]:"},
			reason: "tables of pointers are checked through the pointer, and a nil case says nothing, so it has no reason",
		},
		{
			name: "empty table",
			check: func(tb testing.TB) {
				Cases(tb, []noReason(nil))
			},
			reason: "an empty table has no case to refuse (a table filtered to nothing must not fail for want of reasons)",
		},
		{
			name: "proper map",
			check: func(tb testing.TB) {
				Map(tb, map[string]unnamed{"one": {in: 1, reason: "guards 1"}, "two": {in: 2, reason: "guards 2"}})
			},
			reason: "a map table whose every case has a reason must pass",
		},
		{
			name: "map with empty reasons",
			check: func(tb testing.TB) {
				Map(tb, map[string]unnamed{"one": {in: 1, reason: "guards 1"}, "two": {in: 2}, "three": {in: 3}})
			},
			want:   []string{`cases["three"], cases["two"]: no reason`},
			reason: "a map case is named by its key, and the names are sorted so that the failure reads the same on every run",
		},
		{
			name: "map without reason field",
			check: func(tb testing.TB) {
				Map(tb, map[int]noReason{1: {name: "a"}})
			},
			want:   []string{"has no field reason"},
			reason: "Map refuses a case type without the field, as Cases does",
		},
	}
	for _, c := range Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			got := observe(c.check)
			if len(c.want) == 0 && got != "" {
				t.Fatalf("refused a table it should pass: %s\nreason: %s", got, c.reason)
			}
			if len(c.want) > 0 && got == "" {
				t.Fatalf("passed a table it should refuse\nreason: %s", c.reason)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("failure %q does not mention %q\nreason: %s", got, w, c.reason)
				}
			}
		})
	}
}

// TestCasesReturnsTable guards the shape every caller relies on: the table
// comes back as it went in, same order and same type, so that
// `range tabletest.Cases(t, cases)` iterates exactly what `range cases` did.
func TestCasesReturnsTable(t *testing.T) {
	in := []proper{{name: "a", in: 1, reason: "r"}, {name: "b", in: 2, reason: "r"}}
	out := Cases(t, in)
	if len(out) != len(in) || &out[0] != &in[0] {
		t.Fatalf("Cases returned %v, want the same slice %v", out, in)
	}
	m := map[string]proper{"x": {in: 1, reason: "r"}}
	if got := Map(t, m); len(got) != 1 || got["x"] != m["x"] {
		t.Fatalf("Map returned %v, want %v", got, m)
	}
}
