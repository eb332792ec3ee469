package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/task"
)

// OfflineJudge is the name of the offline reference judge.
const OfflineJudge = "offline/judge"

// Offline is the offline reference judge: a model.Client that decides by
// the deterministic grounding checks alone, so that the judge phase and
// calibrate run without a key or a network. An answer is faithful when
//
//	it is the requested JSON object (metric.ScoreAnswer), and
//	it cites at least one evidence id, and
//	every id it cites names a block or span of the document;
//
// its quotes are the texts of the cited spans and blocks, so they are
// grounded by construction. It never reads the answer's claims: an answer
// that cites real evidence but states something the evidence does not say
// is faithful to it. That blind spot is measured by calibrate, not hidden.
type Offline struct {
	set *task.Set
}

var _ model.Client = (*Offline)(nil)

// NewOffline returns the offline judge over a task set.
func NewOffline(set *task.Set) *Offline { return &Offline{set: set} }

// Complete judges the answer in req's last message (see BuildRequest) for
// task req.TaskID. The reply depends on the task and the answer only.
func (o *Offline) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t := o.set.Task(req.TaskID)
	switch {
	case t == nil:
		return nil, &model.APIError{Status: 400, Scope: model.ScopeModel, Message: fmt.Sprintf("offline judge: unknown task %q", req.TaskID)}
	case t.Class != task.ClassA:
		return nil, &model.APIError{Status: 400, Scope: model.ScopeModel, Message: fmt.Sprintf("offline judge: task %s is class %s; only class A answers are judged", t.ID, t.Class)}
	case len(req.Messages) == 0:
		return nil, &model.APIError{Status: 400, Scope: model.ScopeModel, Message: "offline judge: the request has no messages"}
	}
	content := offlineVote(t, req.Messages[len(req.Messages)-1].Content)
	return model.LocalResponse(OfflineJudge, "offline-judge-"+t.ID, content).Estimate(req), nil
}

// offlineVote returns the offline judge's reply to answer, as JSON.
func offlineVote(t *task.Task, answer string) string {
	doc := t.Source.Doc
	a := metric.ScoreAnswer(doc, answer)
	v := struct {
		Faithful bool     `json:"faithful"`
		Quotes   []string `json:"quotes"`
		Reason   string   `json:"reason"`
	}{Quotes: []string{}}
	switch {
	case !a.Valid:
		v.Reason = "The answer is not the requested JSON object: " + a.Reason + "."
	case len(a.Evidence) == 0:
		v.Reason = "The answer cites no evidence."
	case len(a.Unresolved) > 0:
		v.Reason = "The answer cites ids that are not in the document: " + strings.Join(a.Unresolved, ", ") + "."
	default:
		v.Faithful = true
		for _, ref := range a.Evidence {
			if s := citedText(doc, ref); strings.TrimSpace(s) != "" {
				v.Quotes = append(v.Quotes, s)
			}
		}
		v.Reason = "Every cited id exists in the document (the offline judge checks citations, not claims)."
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// citedText returns the text of the block or span ref names in d (see
// bend.Document.Resolves for the forms of ref), or "" when it names none or holds
// no text.
func citedText(d *bend.Document, ref string) string {
	if r, ok := bend.ParseRef(ref); ok && r.Bend {
		if !r.IsSelf(d.ID) || r.Block == "" {
			return ""
		}
		ref = r.Block
		if r.Span != "" {
			ref += "." + r.Span
		}
	}
	blk, spn, hasSpan := strings.Cut(ref, ".")
	b := d.FindBlock(blk)
	switch {
	case b == nil:
		return ""
	case !hasSpan:
		return b.PlainText()
	}
	if s := b.FindSpan(spn); s != nil && s.Text != nil {
		return *s.Text
	}
	return ""
}
