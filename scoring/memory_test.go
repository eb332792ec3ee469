package scoring

import (
	"sort"

	"bendscript.com/round-trip-harness/transcript"
)

// memory is a Source over transcripts held in memory, for tests that
// make answers by hand: the score phase reads the archive (Archive).
func memory(transcripts []*transcript.Transcript) Source {
	type key struct {
		model, task string
		repeat      int
	}
	answers := map[key]*transcript.Transcript{}
	judged := map[key][]*transcript.Transcript{}
	for _, t := range transcripts {
		switch t.Kind {
		case transcript.KindTask:
			answers[key{t.Model, t.TaskID, t.Repeat}] = t
		case transcript.KindJudge:
			if t.Judged != nil {
				k := key{t.Judged.Model, t.Judged.TaskID, t.Judged.Repeat}
				judged[k] = append(judged[k], t)
			}
		}
	}
	for _, js := range judged {
		sort.Slice(js, func(i, j int) bool { return js[i].Model < js[j].Model })
	}
	return func(model, taskID string, repeat int) (*transcript.Transcript, []*transcript.Transcript, error) {
		k := key{model, taskID, repeat}
		return answers[k], judged[k], nil
	}
}
