package judge

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/task"
)

// PromptVersion names the embedded judge template. It changes whenever the
// template's wording changes, so that verdicts from different wordings are
// never pooled; the template's hash is recorded in every judge transcript
// as well, so an unannounced edit is still caught.
const PromptVersion = "judge-v2"

//go:embed prompts/judge-v2.txt
var templateV1 string

// Prompt is a judge prompt template. The template is a sequence of
// sections, each opened by a line "=== system ===" or "=== user ===" and
// rendered as one chat message of that role. Placeholders:
//
//	{{document}}  the corpus document, exactly as the answering model saw it
//	{{question}}  the task's question (task.Task.Text)
//	{{evidence}}  the evidence ids the answer cites, or a note that it cites none
//	{{answer}}    the answer, verbatim
//
// The last section must be exactly "{{answer}}", so the answer is a message
// of its own: nothing it contains can be confused with the template, and
// the offline judge reads it back from the request's last message.
type Prompt struct {
	Version  string
	Template string
	Hash     string // sha256 of Template, hex

	sections []section
}

type section struct {
	role, text string
}

// DefaultPrompt returns the embedded template, PromptVersion.
func DefaultPrompt() *Prompt {
	p, err := NewPrompt(PromptVersion, templateV1)
	if err != nil {
		panic("judge: embedded template: " + err.Error())
	}
	return p
}

// NewPrompt parses a template (see Prompt).
func NewPrompt(version, template string) (*Prompt, error) {
	sum := sha256.Sum256([]byte(template))
	p := &Prompt{Version: version, Template: template, Hash: hex.EncodeToString(sum[:])}
	for _, line := range strings.SplitAfter(template, "\n") {
		header := strings.TrimSpace(line)
		if role, ok := sectionRole(header); ok {
			p.sections = append(p.sections, section{role: role})
			continue
		}
		if len(p.sections) == 0 {
			if header != "" {
				return nil, fmt.Errorf("judge template %s: text before the first \"=== system ===\" or \"=== user ===\" line", version)
			}
			continue
		}
		p.sections[len(p.sections)-1].text += line
	}
	if n := len(p.sections); n < 2 || strings.TrimSpace(p.sections[n-1].text) != "{{answer}}" || p.sections[n-1].role != "user" {
		return nil, fmt.Errorf("judge template %s: the last section must be a user section holding only {{answer}}", version)
	}
	return p, nil
}

func sectionRole(line string) (string, bool) {
	switch line {
	case "=== system ===":
		return "system", true
	case "=== user ===":
		return "user", true
	}
	return "", false
}

// VoteSchema is the JSON schema of a judge's reply, sent as structured
// output where the provider supports it. ParseVote does not depend on it
// being honoured.
var VoteSchema = json.RawMessage(`{"type":"object","properties":{"faithful":{"type":"boolean"},"quotes":{"type":"array","items":{"type":"string"}},"reason":{"type":"string"}},"required":["faithful","quotes","reason"],"additionalProperties":false}`)

// SchemaName names VoteSchema in the request's response_format.
const SchemaName = "judge_vote"

// BuildRequest returns the request that asks judgeModel whether answer (the
// raw content of a class A task transcript) is faithful to t's document:
// temperature 0, the given seed, structured output, and TaskID set to t.ID
// (never sent) so an offline judge knows the task.
func BuildRequest(t *task.Task, answer, judgeModel string, seed int64, p *Prompt) model.Request {
	if p == nil {
		p = DefaultPrompt()
	}
	r := strings.NewReplacer(
		"{{document}}", strings.TrimRight(string(t.Source.Bytes), "\n"),
		"{{question}}", t.Text(),
		"{{evidence}}", evidenceList(t, answer),
	)
	last := len(p.sections) - 1
	msgs := make([]model.Message, 0, len(p.sections))
	for _, s := range p.sections[:last] {
		msgs = append(msgs, model.Message{Role: s.role, Content: strings.TrimSpace(r.Replace(s.text))})
	}
	// The answer goes in unaltered: trimming or replacing inside it would
	// change what is judged.
	msgs = append(msgs, model.Message{Role: "user", Content: answer})
	return model.Request{
		Model:       judgeModel,
		Messages:    msgs,
		Temperature: new(0.0),
		Seed:        new(seed),
		JSONSchema:  VoteSchema,
		SchemaName:  SchemaName,
		TaskID:      t.ID,
	}
}

// evidenceList renders the ids the answer cites for the {{evidence}}
// placeholder.
func evidenceList(t *task.Task, answer string) string {
	a := metric.ScoreAnswer(t.Source.Doc, answer)
	switch {
	case !a.Valid:
		return "none could be read (" + a.Reason + ")"
	case len(a.Evidence) == 0:
		return "none"
	}
	return strings.Join(a.Evidence, ", ")
}
