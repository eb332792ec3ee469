// Package suites is the table of task suites a run can run: gating,
// natural, size, relay, produce, delegate and all. A suite is a value: its name, its help,
// whether the verdict applies the thresholds to it, the run flags that go
// with it, and how it makes its task set from the corpus. Nothing outside
// this table branches on a suite's name; every task a suite makes carries
// its suite, and a relay step its chain and step, and a size-ladder task
// its rung and position, as fields (task.Task), so that scoring and the
// report group by fields, never by how an id is spelled.
//
// Adding a suite is one entry in Table plus its tests.
package suites

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/suites/delegate"
	"bendscript.com/round-trip-harness/suites/ladder"
	"bendscript.com/round-trip-harness/suites/relay"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// The suites' names, as the --suite flag, run.json and the report spell
// them.
const (
	Gating  = "gating"
	Natural = "natural"
	Size    = "size"
	Relay   = "relay"
	Produce = "produce"
	// Delegate is the chains of round trips drawn from the pools of
	// reversible edits (issue 48; package suites/delegate).
	Delegate = "delegate"
	All      = "all"
)

// A Suite is one entry of the table.
type Suite struct {
	// Name is the suite's name.
	Name string
	// Help says what it runs, for flag help.
	Help string
	// Gates is true when the verdict applies the thresholds to the
	// suite's gating tasks; an informational suite's verdict says only
	// whether the run is complete.
	Gates bool
	// Flags are the run flags that take effect only with this suite
	// ("rungs", "steps").
	Flags []string
	// EditsProjection shows a chain step asked in the projection answer
	// format its document as the projection (task.ShowProjection), so that
	// the text projection is the surface the model edits: given the
	// projection, it returns the edited projection.
	EditsProjection bool
	// FitsOutput raises a B/C answer's output budget to fit its document
	// (the size ladder's large documents). A suite that takes --rungs
	// must (TestRungsFitOutput): a rung's document is up to 512 KB.
	FitsOutput bool
	// Build makes the suite's task set from the corpus and the run's
	// inputs (rungs, steps), every task marked with its suite.
	Build func(corpus *task.Set, in transcript.Inputs) (*task.Set, error)
	// PartNames are the suites whose tasks a run of this one holds
	// (itself, or for "all" its members); Classes is the part whose tasks
	// make the report's per-class results (the §8.7 numbers).
	PartNames []string
	Classes   string
	// Grouping is how the report shows the suite's answers as a part of a
	// run (rows per class, rung and position, or step, and per answer
	// format); nil for a suite made only of other suites.
	Grouping *Grouping
}

// Table is the table, in the order of the --suite help.
var Table = []*Suite{
	{Name: Gating, Gates: true, Help: "§8: the corpus, the verdict", Build: gating,
		PartNames: []string{Gating}, Classes: Gating, Grouping: gatingGrouping},
	{Name: Natural, Help: "the same changes asked for as an editor would", Build: func(c *task.Set, _ transcript.Inputs) (*task.Set, error) { return natural(c), nil },
		PartNames: []string{Natural}, Classes: Natural, Grouping: naturalGrouping},
	{Name: Size, Help: "the size ladder", Flags: []string{"rungs"}, FitsOutput: true, Build: size,
		PartNames: []string{Size}, Classes: Size, Grouping: sizeGrouping},
	{Name: Relay, Help: "chains of edits", Flags: []string{"steps"}, Build: chains,
		PartNames: []string{Relay}, Classes: Relay, Grouping: relayGrouping},
	{Name: Produce, Help: "each document written as .bend from its text projection (P) and as the projection (R); --steps 2 chains R then P", Flags: []string{"steps"}, Build: produce,
		PartNames: []string{Produce}, Classes: Produce, Grouping: produceGrouping},
	{Name: Delegate, Help: "round trips drawn from each document's pool of reversible edits, every step given the model's own answer; RS@k (--round-trips, default 10 = 20 interactions)", Flags: []string{"round-trips", "rungs"}, FitsOutput: true, Build: delegated, EditsProjection: true,
		PartNames: []string{Delegate}, Classes: Delegate, Grouping: delegateGrouping},
	{Name: All, Gates: true, Help: "gating, natural and relay: the gating verdict, the others beside it", Flags: []string{"steps"}, Build: all,
		PartNames: []string{Gating, Natural, Relay}, Classes: Gating},
}

// A Part is one suite a run holds tasks of, and the report section its
// answers make.
type Part struct {
	Name     string
	Grouping *Grouping
}

// Parts returns the parts of a run of s, in the order of its PartNames,
// each with the section its answers make.
func (s *Suite) Parts() []Part {
	var out []Part
	for _, p := range s.PartNames {
		if ps, err := Lookup(p); err == nil {
			out = append(out, Part{p, ps.Grouping})
		}
	}
	return out
}

// InClasses reports whether a task of suite part (a task.Task's Suite)
// counts in the per-class results of a run of s; a task of no recorded
// part ("", from before suites) does, unless s makes no classes.
func (s *Suite) InClasses(part string) bool {
	return s.Classes != "" && (part == "" || s.Classes == part)
}

// PerDocument reports whether a run's classes hold one value per corpus
// document, which the report plots per document (the size ladder and the
// relay have plots of their own).
func (s *Suite) PerDocument() bool {
	if s.Classes == "" {
		return false // a suite of no classes ("" would look up as gating)
	}
	c, err := Lookup(s.Classes)
	return err == nil && (c.Grouping == nil || c.Grouping.Chart == "")
}

// Names lists the suites' names in table order.
func Names() []string {
	out := make([]string, len(Table))
	for i, s := range Table {
		out[i] = s.Name
	}
	return out
}

// FlagHelp is the help of harness run's --suite flag, from the table.
func FlagHelp() string {
	var parts []string
	for _, s := range Table {
		parts = append(parts, fmt.Sprintf("%s (%s)", s.Name, s.Help))
	}
	return "task suite: " + strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// Lookup returns the suite of a name; "" is the gating suite.
func Lookup(name string) (*Suite, error) {
	name = cmp.Or(name, Gating)
	for _, s := range Table {
		if s.Name == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("no suite %q (have %s)", name, strings.Join(Names(), ", "))
}

// Of returns the suite of a name as Lookup does; for a name the table does
// not have (a report or manifest of another harness version) it returns a
// suite of that name that holds no parts, makes no classes and gates
// nothing, so that a reader shows such a run without guessing.
func Of(name string) *Suite {
	if s, err := Lookup(name); err == nil {
		return s
	}
	return &Suite{Name: name}
}

// Takes reports whether s takes the run flag flag ("rungs", "steps").
func (s *Suite) Takes(flag string) bool { return slices.Contains(s.Flags, flag) }

// UsingFlag returns the names of the suites that take flag.
func UsingFlag(flag string) []string {
	var out []string
	for _, s := range Table {
		if s.Takes(flag) {
			out = append(out, s.Name)
		}
	}
	return out
}

// mark returns set with every task's Suite set to name (tasks are
// copied, so the corpus's own are never changed).
func mark(set *task.Set, name string) *task.Set {
	out := *set
	out.Tasks = make([]*task.Task, len(set.Tasks))
	for i, t := range set.Tasks {
		c := *t
		c.Suite = name
		out.Tasks[i] = &c
	}
	return &out
}

func gating(corpus *task.Set, _ transcript.Inputs) (*task.Set, error) {
	return mark(corpus, Gating), nil
}

// NaturalPrefix starts the id of a natural-suite task: n03-b is task 03-b
// asked for as an editor would (instructions/natural/03-b.json), an id no
// other suite uses.
const NaturalPrefix = "n"

// natural is the natural suite's task set: the corpus documents and the
// natural tasks, under ids NaturalPrefix + the forward id.
func natural(corpus *task.Set) *task.Set {
	out := &task.Set{Documents: corpus.Documents}
	for _, t := range corpus.Natural {
		c := *t
		c.ID, c.Suite = NaturalPrefix+t.ID, Natural
		out.Tasks = append(out.Tasks, &c)
	}
	slices.SortFunc(out.Tasks, func(x, y *task.Task) int { return strings.Compare(x.ID, y.ID) })
	return out
}

// size is the size ladder built from the corpus (ladder.Build,
// deterministic, so a resume or rescore rebuilds the same set, which the
// manifest's corpus hash checks).
func size(corpus *task.Set, in transcript.Inputs) (*task.Set, error) {
	c := ladder.Config{}
	if len(in.Rungs) > 0 {
		rungs, err := ladder.ParseRungs(strings.Join(in.Rungs, ","))
		if err != nil {
			return nil, usage.Errorf("--rungs: %v", err)
		}
		c.Rungs = rungs
	}
	rungs, err := ladder.Build(corpus, c)
	if err != nil {
		return nil, fmt.Errorf("building the size ladder: %w", err)
	}
	set, err := ladder.TaskSet(rungs)
	if err != nil {
		return nil, err
	}
	return mark(set, Size), nil
}

// chains is the relay suite: every chain the corpus makes.
func chains(corpus *task.Set, in transcript.Inputs) (*task.Set, error) {
	set, skipped, err := relay.Build(corpus, cmp.Or(in.Steps, relay.DefaultSteps))
	if err != nil {
		return nil, usage.Errorf("--steps: %v", err)
	}
	set.Skipped = skipped
	return mark(set, Relay), nil
}

// delegated is the delegate suite: a chain of round trips per document
// with a pool, its forward order drawn with the run's seed (in.Shuffle)
// and checked against the order the run recorded (in.Order).
//
// With --rungs the chains run on the size ladder's rungs instead, one per
// rung (delegate.BuildRungs).
func delegated(corpus *task.Set, in transcript.Inputs) (*task.Set, error) {
	n := cmp.Or(in.RoundTrips, delegate.DefaultRoundTrips)
	if len(in.Rungs) > 0 {
		sizes, err := ladder.ParseRungs(strings.Join(in.Rungs, ","))
		if err != nil {
			return nil, usage.Errorf("--rungs: %v", err)
		}
		rungs, err := ladder.Build(corpus, ladder.Config{Rungs: sizes})
		if err != nil {
			return nil, fmt.Errorf("building the size ladder: %w", err)
		}
		set, err := delegate.BuildRungs(corpus, rungs, n, in.Shuffle, in.Order)
		if err != nil {
			return nil, usage.Errorf("--round-trips: %v", err)
		}
		return mark(set, Delegate), nil
	}
	set, err := delegate.Build(corpus, n, in.Shuffle, in.Order)
	if err != nil {
		return nil, usage.Errorf("--round-trips: %v", err)
	}
	return mark(set, Delegate), nil
}

// all is the gating, natural and relay suites in one set. (The size suite
// is left out: its 512 KB documents make it a run of its own.)
func all(corpus *task.Set, in transcript.Inputs) (*task.Set, error) {
	r, err := chains(corpus, in)
	if err != nil {
		return nil, err
	}
	g, _ := gating(corpus, in)
	return merge(merge(g, natural(corpus)), r), nil
}

// merge is a set of the tasks of a and b (whose ids differ: relay steps
// are NN-sSS) and of their documents, each once by name.
func merge(a, b *task.Set) *task.Set {
	out := &task.Set{Inverse: a.Inverse, Natural: a.Natural, Skipped: slices.Concat(a.Skipped, b.Skipped)}
	seen := map[string]bool{}
	for _, d := range append(slices.Clone(a.Documents), b.Documents...) {
		if !seen[d.Name] {
			seen[d.Name] = true
			out.Documents = append(out.Documents, d)
		}
	}
	out.Tasks = append(slices.Clone(a.Tasks), b.Tasks...)
	slices.SortFunc(out.Tasks, func(x, y *task.Task) int { return strings.Compare(x.ID, y.ID) })
	return out
}
