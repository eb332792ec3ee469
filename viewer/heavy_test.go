//go:build !race

package viewer

// TestHugeAnswersKeepTheHTMLBounded moves answers of tens of megabytes
// through scoring and the viewer: under the race detector it took 40 s of
// a go test -race ./... that must stay quick. It tests bounds, not
// concurrency, so it runs without it: make test runs it in a second go
// test without -race.

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
	"bendscript.com/round-trip-harness/task"
)

// huge answers 03-b with the expected document and 60,000 blocks more,
// 03-c with the expected document whose first span is 5 MB, and every
// other task as the oracle would.
type huge struct{ set *task.Set }

func (h huge) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	t := h.set.Task(req.TaskID)
	var content string
	switch {
	case t.Class == task.ClassA:
		content = `{"answer": "x", "evidence": []}`
	case req.TaskID == "03-b":
		doc := t.Expected.Clone()
		for i := range 60000 {
			text := fmt.Sprintf("padding paragraph %d", i)
			doc.Blocks = append(doc.Blocks, &bend.Block{ID: fmt.Sprintf("pad%05d", i), Kind: "paragraph", Spans: []*bend.Span{{ID: "s1", Text: &text}}})
		}
		content = string(bend.Marshal(doc))
	case req.TaskID == "03-c":
		doc := t.Expected.Clone()
		text := strings.Repeat("five megabytes ", 5<<20/15)
		for _, b := range doc.Blocks {
			if len(b.Spans) > 0 {
				b.Spans[0].Text = &text
				break
			}
		}
		content = string(bend.Marshal(doc))
	default:
		content = string(bend.Marshal(t.Expected))
	}
	return model.LocalResponse(req.Model, "huge", content), nil
}

// TestHugeAnswersKeepTheHTMLBounded: the viewer's diffs were unbounded:
// answers of 60,000 blocks gave a 1.34 GB report, one 5 MB span 200 MB.
// Every diff and list is bounded and says what was cut.
func TestHugeAnswersKeepTheHTMLBounded(t *testing.T) {
	t.Parallel()
	set, _ := task.Load(corpus.FS, instructions.FS)
	run, _ := pipelinetest.Pipeline(t, []string{"vendor/huge"}, map[string]model.Client{"vendor/huge": huge{set}}, 1, 7)
	in := inputOf(run)
	var b bytes.Buffer
	if err := WriteHTML(&b, aggregate.Build(in.Input), in); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	t.Logf("HTML report: %d bytes", len(html))
	if n := len(html); n > 4<<20 {
		t.Errorf("the HTML report is %d bytes; want it bounded (under 4 MB for one model's 60 answers)", n)
	}
	if !strings.Contains(html, "Diff cut at 65536 of its") {
		t.Error("the HTML report does not say a diff was cut")
	}
}
