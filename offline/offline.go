// Package offline provides the reference models: deterministic stand-ins
// for a frontier model that answer from the task itself, behind the same
// model.Client interface as the OpenRouter client. They need no key and no
// network, so the whole pipeline runs offline (make demo) and tests exercise
// the real code paths.
//
//	offline/oracle    returns the expected document; answers class A with the reference answer and evidence
//	offline/identity  returns the source unchanged; answers class A with "unknown"
//	offline/noisy     the expected document with seeded, realistic perturbations
//	offline/noisy-low, offline/noisy-high   the same, with fewer or more of them (noise levels, to show the metric separates them)
//	offline/rare-slip the expected document, but for one rare large slip per chain, carried on (slip.go)
//
// A class B/C task in a patch format (task.Task.Format) is answered in that
// format (format.go).
package offline

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/projection"
	"bendscript.com/round-trip-harness/task"
)

// Prefix marks offline model names.
const Prefix = "offline/"

// The offline task models.
const (
	Oracle   = "offline/oracle"
	Identity = "offline/identity"
	Noisy    = "offline/noisy"
	// NoisyLow and NoisyHigh perturb less and more than Noisy: 0 or 1
	// perturbations (70%, 30%), and 1, 2 or 3 (40%, 40%, 20%), against
	// Noisy's 0, 1 or 2 (45%, 40%, 15%).
	NoisyLow  = "offline/noisy-low"
	NoisyHigh = "offline/noisy-high"
)

// RareSlip (slip.go) is exact but for rare large slips in chains.

// IsOffline reports whether name is an offline model.
func IsOffline(name string) bool { return strings.HasPrefix(name, Prefix) }

// Model is an offline model over a task set.
type Model struct {
	name string
	set  *task.Set
}

var _ model.Client = (*Model)(nil)

// New returns the offline model called name.
func New(name string, set *task.Set) (*Model, error) {
	switch name {
	case Oracle, Identity, Noisy, NoisyLow, NoisyHigh, RareSlip:
		return &Model{name: name, set: set}, nil
	}
	return nil, fmt.Errorf("unknown offline model %q (have %s, %s, %s, %s, %s, %s)", name, Oracle, Identity, Noisy, NoisyLow, NoisyHigh, RareSlip)
}

// Complete answers req.TaskID. The answer depends only on the task, the
// model, req.Seed (0 when unset) and the feedback round (how many answers
// the conversation already holds), so runs are reproducible.
func (m *Model) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t := m.set.Task(req.TaskID)
	if t == nil {
		return nil, &model.APIError{Status: 400, Scope: model.ScopeModel, Message: fmt.Sprintf("offline model: unknown task %q", req.TaskID)}
	}
	var seed int64
	if req.Seed != nil {
		seed = *req.Seed
	}
	// A feedback round (the conversation goes on after the first answer)
	// draws anew, as a sampling model asked again answers anew: offline/noisy
	// may then repair its slip, or make another.
	if k := (len(req.Messages) - 2) / 2; k > 0 {
		seed += int64(k) << 32
	}
	f, err := patchFormat(t)
	if err != nil {
		return nil, &model.APIError{Status: 400, Scope: model.ScopeModel, Message: err.Error()}
	}
	if f != nil {
		content, err := m.formatComplete(f, t, req.Document, seed)
		if err != nil {
			return nil, err
		}
		resp := model.LocalResponse(m.name, "offline-"+t.ID, content).Estimate(req)
		resp.FinishReason = "stop"
		return resp, nil
	}
	content, finish := m.answer(t, seed)
	if m.name == RareSlip && t.Step > 0 && t.Class != task.ClassA {
		content, finish = string(bend.Marshal(m.slipped(t, seed))), "stop"
	} else if t.Step > 0 && req.Document != nil {
		content, finish = m.relayStep(t, req.Document, seed), "stop"
	}
	resp := model.LocalResponse(m.name, "offline-"+t.ID, content).Estimate(req)
	resp.FinishReason = finish
	return resp, nil
}

func (m *Model) answer(t *task.Task, seed int64) (content, finish string) {
	if t.Class == task.ClassA {
		return m.classA(t, seed), "stop"
	}
	if len(t.Names) > 0 {
		t, _ = ownNames(t)
	}
	switch m.name {
	case Oracle, RareSlip:
		return string(bend.Marshal(t.Expected)), "stop"
	case Identity:
		return string(t.Source.Bytes), "stop"
	}
	return perturb(t, seed, m.name)
}

// relayStep answers a relay step (package relay), given the document the
// model was handed: its own previous answer. offline/oracle returns the
// step's expected document, whatever it was given, so it stays at drift 0;
// offline/identity returns what it was given; offline/noisy applies the
// step's gold edit to what it was given (what it cannot apply it leaves)
// and makes its usual mistakes on top, so its slips compound from step to
// step as a real model's would.
func (m *Model) relayStep(t *task.Task, given []byte, seed int64) string {
	switch m.name {
	case Oracle:
		return string(bend.Marshal(t.Expected))
	case Identity:
		return string(given)
	}
	d, err := bend.Parse(given)
	if err != nil {
		// A step shown its document as the projection (the produce
		// chain's class P) reads it as such.
		if d, err = projection.Parse(string(given)); err != nil {
			return string(given)
		}
	}
	if next, err := edit.Apply(d, t.GoldEdit); err == nil {
		d = next
	}
	at := *t
	at.Expected = d
	out, _ := perturb(&at, seed, m.name)
	return out
}

type answer struct {
	Answer   string   `json:"answer"`
	Evidence []string `json:"evidence"`
}

func (m *Model) classA(t *task.Task, seed int64) string {
	a := answer{Answer: t.ReferenceAnswer, Evidence: t.Evidence}
	switch m.name {
	case Identity:
		a = answer{Answer: "unknown", Evidence: []string{}}
	case Noisy:
		r := newRand(seed, t.ID)
		if r.chance(0.25) {
			// A plausible but fabricated citation: the kind of error the
			// judge and the grounding check must catch.
			a.Evidence = append(append([]string(nil), a.Evidence...), "blk-f4b1.spn-99")
			a.Answer += " (as also noted in the appendix)"
		}
	}
	b, _ := json.Marshal(a)
	return string(b)
}

// ownNames is a natural task as the offline models answer it: a natural
// task names no id for new content, so the model picks its own, never the
// gold's default names ("-mine" appended). It returns the task with its
// expected document renamed, and the names (placeholder → id) that bind
// its gold edit to the same ids.
func ownNames(t *task.Task) (*task.Task, map[string]string) {
	mine := map[string]string{}
	defaults := map[string]bool{}
	for k, n := range t.Names {
		mine[k] = n + "-mine"
		defaults[n] = true
	}
	own := *t
	own.Expected = metric.Rename(t.Expected, metric.RenameKeys(t.Expected, defaults, func(id string) string { return id + "-mine" }))
	return &own, mine
}
