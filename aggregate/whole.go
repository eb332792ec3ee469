package aggregate

import (
	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
)

// wholeSize is what the answers of key k's row to the tasks ids would
// have been as whole documents: the length of each scored answer's
// expected document as bend.Marshal writes it, summed, and its tokens by
// the harness's estimate (model.Tokens). It is the yardstick of an answer
// format's saving when the run asked for no whole-document answer to set
// beside it (issue 56: a search-replace run showed no saving at all);
// zero for a whole-document row, and without the task set. The answers
// counted are those Summary.AnswerBytes counts (scored, asked).
func (b *builder) wholeSize(k report.Key, ids []string) (bytes, tokens int64) {
	if b.set == nil || formats.Of(k.Format).Whole {
		return 0, 0
	}
	for _, id := range ids {
		t := b.set.Task(id)
		if t == nil || t.Expected == nil {
			continue
		}
		for r := range b.repeats {
			s := b.answers[key{k.Model, id, r}]
			if s == nil || s.Status != scoring.StatusScored || s.Metric == nil || s.NotRun {
				continue
			}
			n, ok := b.wholeBytes[id]
			if !ok {
				n = len(bend.Marshal(t.Expected))
				b.wholeBytes[id] = n
			}
			bytes += int64(n)
			tokens += int64(model.Tokens(n))
		}
	}
	return bytes, tokens
}
