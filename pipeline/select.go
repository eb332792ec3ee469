package pipeline

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// Select returns the part of set that sel selects, and records in sel.Of
// the number of set's tasks. A task is selected when it passes every
// filter given:
//
//   - Tasks: a glob (path.Match) matches its id, or the id of the task it
//     rewords ("03-b" selects n03-b in the natural suite);
//   - Classes: its class is one of them (a, b, c; any case);
//   - Docs: a glob matches its document's name, that name without
//     ".bend.json", or the name's number ("03");
//
// then Limit keeps the first Limit in the set's order. A relay chain is a
// unit: it is kept whole when any of its steps is selected, and counts as
// one against Limit, since a chain cannot run without its earlier steps.
// A pattern that matches no task of the suite, or a selection that leaves
// nothing, is a usage error rather than an empty run.
func Select(set *task.Set, sel *transcript.Selection) (*task.Set, error) {
	if sel == nil {
		return set, nil
	}
	sel.Of = len(set.Tasks)
	if err := checkSelection(set, sel); err != nil {
		return nil, err
	}
	out := &task.Set{Documents: set.Documents, Inverse: set.Inverse, Natural: set.Natural, Order: set.Order}
	kept := 0
	for _, u := range units(set) {
		if sel.Limit > 0 && kept == sel.Limit {
			break
		}
		if slices.ContainsFunc(u, func(t *task.Task) bool { return selected(sel, t) }) {
			out.Tasks = append(out.Tasks, u...)
			kept++
		}
	}
	if len(out.Tasks) == 0 {
		return nil, usage.Errorf("the selection (%s) leaves no task to run", sel)
	}
	slices.SortFunc(out.Tasks, func(x, y *task.Task) int { return strings.Compare(x.ID, y.ID) })
	return out, nil
}

// checkSelection refuses a pattern that is not one, a class that is not
// a, b or c, and a pattern that matches nothing of set, naming it.
func checkSelection(set *task.Set, sel *transcript.Selection) error {
	for _, p := range append(slices.Clone(sel.Tasks), sel.Docs...) {
		if _, err := path.Match(p, ""); err != nil {
			return usage.Errorf("selection: %q is not a valid pattern: %v", p, err)
		}
	}
	for _, c := range sel.Classes {
		if !slices.Contains([]string{"a", "b", "c"}, strings.ToLower(c)) {
			return usage.Errorf("--classes takes a, b and c, not %q", c)
		}
	}
	for _, p := range sel.Tasks {
		if !slices.ContainsFunc(set.Tasks, func(t *task.Task) bool { return matchTask(p, t) }) {
			return usage.Errorf("--tasks: %q matches no task of the suite", p)
		}
	}
	for _, p := range sel.Docs {
		if !slices.ContainsFunc(set.Tasks, func(t *task.Task) bool { return matchDoc(p, t) }) {
			return usage.Errorf("--docs: %q matches no document of the suite; its documents are %s", p, strings.Join(docNames(set), ", "))
		}
	}
	return nil
}

// units are what a selection keeps or drops whole, in set order: a single
// task, or a relay chain (all the steps of a document).
func units(set *task.Set) [][]*task.Task {
	var out [][]*task.Task
	chain := map[string]int{}
	for _, t := range set.Tasks {
		if t.Step == 0 {
			out = append(out, []*task.Task{t})
			continue
		}
		i, ok := chain[t.DocumentName]
		if !ok {
			i = len(out)
			chain[t.DocumentName] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], t)
	}
	return out
}

// selected reports whether t passes every filter of sel.
func selected(sel *transcript.Selection, t *task.Task) bool {
	if len(sel.Tasks) > 0 && !slices.ContainsFunc(sel.Tasks, func(p string) bool { return matchTask(p, t) }) {
		return false
	}
	if len(sel.Classes) > 0 && !slices.ContainsFunc(sel.Classes, func(c string) bool { return strings.EqualFold(c, t.Class) }) {
		return false
	}
	if len(sel.Docs) > 0 && !slices.ContainsFunc(sel.Docs, func(p string) bool { return matchDoc(p, t) }) {
		return false
	}
	return true
}

func matchTask(p string, t *task.Task) bool {
	return match(p, t.ID) || t.Forward != nil && match(p, t.Forward.ID)
}

func matchDoc(p string, t *task.Task) bool {
	name := t.DocumentName
	number, rest, _ := strings.Cut(name, "-")
	return match(p, name) || match(p, strings.TrimSuffix(name, ".bend.json")) || match(p, number) ||
		match(p, strings.TrimSuffix(rest, ".bend.json")) || sameNumber(p, number)
}

// sameNumber reports whether p and number are the same whole number, so
// that --docs 2 is document 02 (issue 34: it matched nothing).
func sameNumber(p, number string) bool {
	a, errA := strconv.Atoi(p)
	b, errB := strconv.Atoi(number)
	return errA == nil && errB == nil && a == b
}

// docNames are the suite's documents as --docs names them, in order.
func docNames(set *task.Set) []string {
	var out []string
	for _, t := range set.Tasks {
		if n := strings.TrimSuffix(t.DocumentName, ".bend.json"); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func match(p, s string) bool {
	ok, _ := path.Match(p, s)
	return ok
}
