package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"

	"bendscript.com/round-trip-harness/metric"
)

// Answer is one planned (model, task, repeat) of the run, as every writer
// that lists answers prints it: the CSV's rows, the viewer's transcript
// table and its step plots read their numbers from here, never from the
// scores, so that a report read back from its JSON prints the same. It
// is the harness's own, beside the §8.7 fields (JSON: Report.Answers,
// "answers"); aggregate.Answers builds them.
//
// The record is compact: a value that does not apply to the answer (a
// drift for class A, a judges' decision for B and C, any measure of an
// answer that was not scored) is absent rather than null, and WriteJSON
// writes one answer to a line (writeAnswers): an answer adds 406 to 478
// bytes to the report (measured on make demo's runs and an offline
// delegate run of 1,200 answers; indented, 600 to 720).
//
// Adding Answers did not change the schema version (4): a reader that
// does not know the field ignores it. A schema 2, 3 or 4 report written
// before it has no answers; the CSV written from such a report has its
// header alone and the viewer no transcript rows, details or step-plot
// dots (no command writes them from a report read from disk: `harness
// rescore` rebuilds the report with its answers).
type Answer struct {
	// Model, TaskID, Class and Document name the answer (the score's).
	Model    string `json:"model"`
	TaskID   string `json:"task_id"`
	Class    string `json:"class"`
	Document string `json:"document"`
	// Part is the task's suite part (suites.Suite.Parts); Format its
	// answer format ("document" for the whole document; absent for a
	// class A answer, and in reports before issue 56 for the whole
	// document too); Chain and Step a relay
	// or delegate chain's and the step's (absent for a task of no chain).
	Part   string `json:"part,omitempty"`
	Format string `json:"format,omitempty"`
	Chain  string `json:"chain,omitempty"`
	Step   int    `json:"step,omitempty"`
	// Repeat is the 0-based repeat index.
	Repeat int `json:"repeat"`
	// Status is "scored", "api_error" or "missing" (scoring.Status*).
	Status string `json:"status"`

	// Drift, Components, Lossless, Residual, Unrequested and
	// EditCompliance are the answer's metric.Result's Drift, Components
	// (in metric.ComponentLabels order), Lossless, Residual,
	// UnrequestedChanges and EditCompliance (B, C; absent when the answer
	// has no metric result; Unrequested also when the answer held no
	// document). The CSV's edit_applied column is EditCompliance.
	Drift          *float64                       `json:"drift,omitempty"`
	Components     *[metric.NumComponents]float64 `json:"components,omitempty"`
	Lossless       *bool                          `json:"lossless,omitempty"`
	Residual       *float64                       `json:"residual,omitempty"`
	Unrequested    *int                           `json:"unrequested,omitempty"`
	EditCompliance *float64                       `json:"edit_compliance,omitempty"`
	// Valid is whether the answer held a valid document (B, C) or a valid
	// answer object (A); absent when neither was measured.
	Valid *bool `json:"valid,omitempty"`
	// Judged is the judges' decision on a class A answer (aggregate.Decision):
	// JudgedFaithful, JudgedUnfaithful, or JudgedUndecided when there is
	// a verdict without a valid vote; absent when there is no verdict.
	Judged string `json:"judged,omitempty"`

	// PromptTokens and CompletionTokens are the answer's usage (every
	// feedback round's added up); TokensEstimated is set when they are
	// estimates from the text's length (transcript.Usage.Estimated).
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TokensEstimated  bool  `json:"tokens_estimated,omitempty"`
	// CostUSD is the answer's reported cost; null when unknown.
	CostUSD *float64 `json:"cost_usd"`
	// LatencyMS and Attempts are the answer's latency in milliseconds and
	// its HTTP attempts.
	LatencyMS int64 `json:"latency_ms"`
	Attempts  int   `json:"attempts"`
	// Transcript is the transcript's path below the run directory; absent
	// when missing.
	Transcript string `json:"transcript,omitempty"`
}

// The values of Answer.Judged.
const (
	JudgedFaithful   = "faithful"
	JudgedUnfaithful = "unfaithful"
	JudgedUndecided  = "undecided"
)

// writeAnswers writes, after an indented JSON object's members (WriteJSON
// holds back its closing brace), answers as its last member, "answers",
// one answer to a line, and closes the object: a run of thousands of
// answers reads (and greps and diffs) as a table, at about two thirds of
// the bytes of the indented form. The answers are written as they are
// encoded, so the report is never held twice.
func writeAnswers(bw *bufio.Writer, answers []Answer) error {
	bw.WriteString(",\n  \"answers\": [")
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	for i := range answers {
		line.Reset()
		if err := enc.Encode(&answers[i]); err != nil {
			return fmt.Errorf("encoding report: /answers/%d: %w", i, err)
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		bw.Write(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
	}
	_, err := bw.WriteString("\n  ]\n}\n")
	return err
}
