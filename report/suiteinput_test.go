package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/relay"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/suites"
)

// suiteInput is a hand-made size or relay run of two models: no corpus,
// so that the pages' plots can be looked at without running the suites.
func suiteInput(suite string) Input {
	s := synthetic{models: []string{"vendor/steady", "vendor/drifty"}, repeats: 1,
		answer: func(model, id string, r int) (float64, bool, string) {
			scale := 0.02
			if _, step, ok := strings.Cut(id, "-s"); ok {
				n, _ := strconv.Atoi(step)
				scale *= float64(n)
			}
			if model == "vendor/drifty" {
				scale *= 6
			}
			return math.Min(0.99, scale*jitter(model, id, r)), true, scoring.StatusScored
		}}
	in := s.input()
	var ids []string
	classOf := map[string]string{}
	switch suite {
	case suites.Size:
		for _, rung := range []string{"8k", "32k", "128k", "512k"} {
			for _, pos := range []string{"start", "middle", "end"} {
				for _, c := range []string{"b", "c"} {
					id := rung + "-" + pos + "-" + c
					ids, classOf[id] = append(ids, id), strings.ToUpper(c)
				}
			}
		}
	case suites.Relay:
		for d := 1; d <= 20; d++ {
			for step := 1; step <= 8; step++ {
				id := fmt.Sprintf("%02d-s%02d", d, step)
				ids, classOf[id] = append(ids, id), relay.Edits[(step-1)%4][:1]
			}
		}
	}
	in.Manifest.TaskIDs, in.Manifest.Inputs.Suite = ids, suite
	in.Scores = nil
	for _, model := range s.models {
		for _, id := range ids {
			sc := s.score(model, id, 0)
			sc.Class, sc.Suite = classOf[id], suite
			switch suite {
			case suites.Size:
				parts := strings.SplitN(id, "-", 3)
				sc.Rung, sc.Position = parts[0], parts[1]
			case suites.Relay:
				sc.Chain, sc.Step = id[:2], int(id[4]-'0')*10+int(id[5]-'0')
			}
			in.Scores = append(in.Scores, sc)
		}
	}
	return in
}
