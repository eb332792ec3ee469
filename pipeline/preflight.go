package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
)

// lister is a client that can list its models (the OpenRouter client).
type lister interface {
	ListModels(ctx context.Context) ([]model.ModelInfo, error)
}

// requiredParams are the request parameters every gating request sends.
var requiredParams = []string{"temperature", "seed"}

// preflight checks every online model against the provider's model list
// (exists, supports the parameters we send) and prints the run's size and
// estimated cost, before any paid request.
//
// It returns the online models whose listing says they do not take
// structured output (response_format): judges among them are asked without
// a schema and their replies parsed tolerantly.
func preflight(ctx context.Context, online []string, clients map[string]model.Client, jobs []runner.Job, set *task.Set, w io.Writer) (unstructured []string, err error) {
	l, ok := clients[online[0]].(lister)
	if !ok {
		return nil, nil
	}
	lctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	infos, err := l.ListModels(lctx)
	if err != nil {
		return nil, fmt.Errorf("preflight: listing models: %w (use --no-preflight for servers without a model list)", err)
	}
	byID := map[string]model.ModelInfo{}
	for _, m := range infos {
		byID[m.ID] = m
	}
	var problems []string
	est := estimate(jobs, set)
	total, known := 0.0, true
	fmt.Fprintf(w, "preflight: %d jobs\n", len(jobs))
	for _, m := range online {
		info, ok := byID[m]
		if !ok {
			problems = append(problems, fmt.Sprintf("model %q is not in the provider's model list", m))
			continue
		}
		if len(info.SupportedParameters) > 0 {
			if !slices.Contains(info.SupportedParameters, "response_format") && !slices.Contains(info.SupportedParameters, "structured_outputs") {
				unstructured = append(unstructured, m)
			}
			for _, p := range requiredParams {
				if !slices.Contains(info.SupportedParameters, p) {
					problems = append(problems, fmt.Sprintf("model %q does not support %q, which every request sends (§8.7)", m, p))
				}
			}
		}
		e := est[m]
		cost := "unknown"
		if info.PromptPrice != nil && info.CompletionPrice != nil {
			c := float64(e.prompt)**info.PromptPrice + float64(e.completion)**info.CompletionPrice
			total += c
			cost = fmt.Sprintf("$%.2f", c)
		} else if e.jobs > 0 {
			known = false
		}
		fmt.Fprintf(w, "  %-40s %3d jobs  ~%d prompt + ~%d completion tokens  est. %s\n", m, e.jobs, e.prompt, e.completion, cost)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("preflight failed:\n  %s", strings.Join(problems, "\n  "))
	}
	suffix := ""
	if !known {
		suffix = " (some prices unknown)"
	}
	fmt.Fprintf(w, "  estimated cost of answers: $%.2f%s (judges not included; cached prefixes cost less)\n", total, suffix)
	return unstructured, nil
}

type tokenEstimate struct {
	jobs               int
	prompt, completion int64
}

// estimate counts tokens as characters / 4, a rough rule that is good enough
// to catch a run that would cost ten times what was expected.
func estimate(jobs []runner.Job, set *task.Set) map[string]tokenEstimate {
	out := map[string]tokenEstimate{}
	for _, j := range jobs {
		e := out[j.Model]
		e.jobs++
		b, _ := json.Marshal(j.Request.Messages)
		e.prompt += int64(len(b) / 4)
		if t := set.Task(j.Record.TaskID); t == nil || t.Class == task.ClassA {
			e.completion += 200
		} else {
			e.completion += int64(len(t.Source.Bytes) / 4)
		}
		out[j.Model] = e
	}
	return out
}
