package scoring

import (
	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/task"
)

// deltaOf is what the document an answer to t made (Output.Document: its
// content, or for a patch format the answer applied to the document given)
// deleted, corrupted and added against t's expected document; nil when the
// answer holds no document.
func deltaOf(t *task.Task, raw string) (d *metric.Delta) {
	defer func() {
		if recover() != nil {
			d = nil // Metric said why; the delta is only beside it
		}
	}()
	if raw == "" {
		return nil
	}
	x := metric.ExtractJSON(raw, func(v *bend.Value) bool { return v.Get("blocks") != nil })
	if x.Value == nil || x.Value.Kind != bend.Object {
		return nil
	}
	out := metric.DeltaOf(t.Expected, bend.FromValue(x.Value))
	return &out
}
