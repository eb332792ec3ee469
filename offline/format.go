package offline

import (
	"fmt"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/task"
)

// Answers in a patch format (package formats; task.Task.Format other than
// "" and document), class B/C only. Each model answers through the format's
// own Answer and Slip, so that no format needs code here:
//
//	offline/oracle    formats.Format.Answer of the expected document and the gold edit (json-patch: a jsondiff of the given document to it; bend-ops: the gold edit)
//	offline/identity  the answer that changes nothing: Answer of the document given (json-patch and bend-ops: []; search-replace: one block that quotes a line and leaves it)
//	offline/noisy     Answer of the document perturb would return (json-patch carries its perturbations; bend-ops, which answers with the gold edit, none), then, at rate FormatSlip, one Slip of the format; in a Markdown fence one time in five
//
// A natural task's new ids are the model's own (the "-mine" names of
// answer), in the answer's document and in the gold edit bound to them
// alike. A relay step answers against the document it was given.

// FormatSlip is the rate at which offline/noisy makes its format's slip
// (formats.Format.Slip: json-patch, one array index off by one; bend-ops,
// one addressing id misread), offline/noisy-low at a third of it and
// offline/noisy-high at twice it, as MetaSlip. It is drawn from a stream
// of its own (the format and the task), so the perturbations are those of
// the document answer of the same task and seed.
const FormatSlip = 0.15

// patchFormat returns t's answer format when t is a class B/C task that
// answers in a patch format, nil when it answers with a document, and an
// error when the format is unknown.
func patchFormat(t *task.Task) (*formats.Format, error) {
	f := formats.Lookup(t.Format)
	switch {
	case f == nil:
		return nil, fmt.Errorf("offline model: task %s: unknown answer format %q", t.ID, t.Format)
	case f.Whole || t.Class == task.ClassA:
		return nil, nil
	}
	return f, nil
}

// formatComplete answers t in format f. given is the document of a relay
// step (nil for any other task).
func (m *Model) formatComplete(f *formats.Format, t *task.Task, given []byte, seed int64) (string, error) {
	t, given, ops, err := m.formatTarget(t, given)
	if err != nil {
		return "", err
	}
	switch m.name {
	case Oracle:
		return f.Answer(given, t.Expected, ops)
	case RareSlip:
		return f.Answer(given, m.slipped(t, seed), ops)
	case Identity:
		return identity(f, given)
	}
	d, _ := perturbed(t, seed, m.name)
	ans, err := f.Answer(given, d, ops)
	if err != nil {
		return "", err
	}
	return m.formatSlip(f, t, seed, ans), nil
}

// formatTarget is what a format answer to t turns into what, by which
// operations: a relay step's edit on the document given (offline/noisy:
// what does not apply left as it was, as relayStep); a natural task's
// with the model's own new ids ("-mine", as answer); any other task's
// source, expected document and gold edit.
func (m *Model) formatTarget(t *task.Task, given []byte) (*task.Task, []byte, []*edit.Op, error) {
	switch {
	case t.Step > 0 && given != nil:
		if m.name == Oracle || m.name == RareSlip {
			return t, given, t.GoldEdit, nil
		}
		if d, err := bend.Parse(given); err == nil {
			if next, err := edit.Apply(d, t.GoldEdit); err == nil {
				d = next
			}
			at := *t
			at.Expected = d
			t = &at
		}
		return t, given, t.GoldEdit, nil
	case len(t.Names) > 0:
		own, mine := ownNames(t)
		bound, err := edit.Bind(t.GoldEdit, mine)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("offline model: task %s: %w", t.ID, err)
		}
		return own, t.Source.Bytes, bound, nil
	}
	return t, t.Source.Bytes, t.GoldEdit, nil
}

// formatSlip makes offline/noisy's format slip in ans at FormatSlip (a
// third of it at noisy-low, twice at noisy-high), from a stream of its
// own, and fences one answer in five.
func (m *Model) formatSlip(f *formats.Format, t *task.Task, seed int64, ans string) string {
	rate := FormatSlip
	switch m.name {
	case NoisyLow:
		rate /= 3
	case NoisyHigh:
		rate *= 2
	}
	r := newRand(seed, "format/"+f.Name+"/"+t.ID)
	if r.chance(rate) {
		ans, _ = f.Slip(ans, r.Rand)
	}
	if r.chance(0.2) {
		ans = "Here is the patch:\n\n```json\n" + ans + "\n```\n"
	}
	return ans
}

// identity is the answer in format f that leaves given as it is.
func identity(f *formats.Format, given []byte) (string, error) {
	d, err := bend.Parse(given)
	if err != nil {
		return "[]", nil
	}
	return f.Answer(given, d, nil)
}
