package pipeline

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"bendscript.com/round-trip-harness/internal/regularfile"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/transcript"
)

// NightCost is what the run in runDir cost, read from its archive one
// file at a time: usage.cost of every transcript (answers, feedback
// rounds, judge votes, and superseded attempts: all were paid for), and
// the costs GET /generation gave later for attempts whose transcript knew
// none (ReconcileName, written by the run or by harness runs --reconcile):
// transcripts are never rewritten, so that file is where an interrupted
// or silent stream's cost is kept (issue 42). It is the one computation
// of a run's cost: `harness runs` prints its USD, the report states it
// whole (issue 52: the report showed the answers' cost alone).
//
// A response that reported no cost is unknown, never 0, as is a file that
// cannot be read; a superseded attempt (a failed call asked again) that
// reported no cost is not: a later attempt replaced it, and a failed call
// is not charged unless it says so (reconciliation prices it when
// OpenRouter did).
func NightCost(runDir string) report.NightCost {
	var c report.NightCost
	priced := map[string]bool{} // transcript path and generation id
	if rec, err := readReconciliation(runDir); err == nil {
		if !(rec.USD >= 0 && rec.USD <= 1e6) {
			c.Unknown++ // a reconciliation that cannot be read is a cost unknown, never 0
		} else {
			c.USD += rec.USD
			c.Reconciled.USD = rec.USD
			c.Reconciled.Calls = len(rec.Generations) - rec.Unresolved
			c.Unresolved = rec.Unresolved
			for _, g := range rec.Generations {
				if g.Cost != nil {
					priced[g.Transcript+"\x00"+g.ID] = true
				}
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		c.Unknown++
	}
	var byok report.BYOKCost
	filepath.WalkDir(runDir, func(path string, d fs.DirEntry, err error) error {
		superseded := strings.Contains(path, ".json.superseded-")
		if err != nil || d.IsDir() || path == filepath.Join(runDir, transcript.ManifestName) || path == filepath.Join(runDir, ReconcileName) ||
			!strings.HasSuffix(path, ".json") && !superseded {
			return nil
		}
		b, err := regularfile.Read(path, transcript.MaxSize)
		if err != nil {
			c.Unknown++ // a file that cannot be read is a cost unknown, never 0
			return nil
		}
		var t struct {
			Kind     string `json:"kind"`
			TaskID   string `json:"task_id"`
			Response *struct {
				Usage struct {
					Cost         *float64 `json:"cost"`
					UpstreamCost *float64 `json:"upstream_cost"`
				} `json:"usage"`
			} `json:"response"`
			Attempts []transcript.Attempt `json:"attempts"`
		}
		if json.Unmarshal(b, &t) != nil || t.Response == nil {
			return nil
		}
		part := partOf(&c, t.Kind, t.TaskID, superseded)
		u := t.Response.Usage
		switch {
		case u.Cost != nil:
			part.Calls++
			part.USD += *u.Cost
			c.USD += *u.Cost
			if u.UpstreamCost != nil {
				byok.Calls++
				byok.ProviderUSD += *u.UpstreamCost
			}
		case superseded:
		case reconciledAll(runDir, path, t.Attempts, priced):
			// Every unpriced attempt of it was priced by GET /generation
			// (in c.Reconciled): a known cost (issue 53: a fully
			// reconciled run still showed "+?").
			part.Calls++
		default:
			part.Calls++
			part.Unknown++
			c.Unknown++
		}
		return nil
	})
	if byok.Calls > 0 {
		byok.OpenRouterUSD = c.USD - byok.ProviderUSD
		c.BYOK = &byok
	}
	return c
}

// partOf is the part of c a transcript's cost belongs to: a superseded
// attempt's, a judge vote's, a feedback round's (its task id names the
// round, task.FeedbackID) or an answer's.
func partOf(c *report.NightCost, kind, taskID string, superseded bool) *report.CostPart {
	switch {
	case superseded:
		return &c.Superseded
	case kind == transcript.KindJudge:
		return &c.JudgeVotes
	case strings.Contains(taskID, ".fb"):
		return &c.FeedbackRounds
	}
	return &c.Answers
}

// reconciledAll is reconciled for the transcript at path in runDir.
func reconciledAll(runDir, path string, attempts []transcript.Attempt, priced map[string]bool) bool {
	rel, err := filepath.Rel(runDir, path)
	return err == nil && reconciled(filepath.ToSlash(rel), attempts, priced)
}

// reconciled reports whether every attempt of a transcript that has a
// generation id and no cost was priced by the reconciliation, and it has
// at least one.
func reconciled(rel string, attempts []transcript.Attempt, priced map[string]bool) bool {
	n := 0
	for _, a := range attempts {
		if a.GenerationID == "" || a.Cost != nil {
			continue
		}
		if !priced[rel+"\x00"+a.GenerationID] {
			return false
		}
		n++
	}
	return n > 0
}
