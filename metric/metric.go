package metric

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
)

// Version is the metric version recorded in every Result as metric_version.
// It changes whenever a formula, a bound or a default changes, so that two
// scores computed by different versions are never compared as equals.
const Version = "2"

// NumComponents is the number of drift components. Every list of them —
// Components, Weights, ComponentNames, ComponentLabels, the report's
// columns — has this length and follows this package's order, so a new
// component is added here once and reaches every reader.
const NumComponents = 5

// ComponentNames are the components' names in JSON and YAML, in order.
var ComponentNames = [NumComponents]string{"block_structure", "edge_preservation", "span_coverage", "mark_fidelity", "vocabulary_integrity"}

// ComponentLabels are short column headings for the components, in order.
var ComponentLabels = [NumComponents]string{"block", "edge", "span", "mark", "vocab"}

// Weights are the weights of the five drift components. Drift is
// Σ wᵢ·cᵢ / Σ wᵢ, so only their ratios matter; the report records them.
// harness.yaml's "weights" section is this struct.
type Weights struct {
	BlockStructure      float64 `json:"block_structure" yaml:"block_structure"`
	EdgePreservation    float64 `json:"edge_preservation" yaml:"edge_preservation"`
	SpanCoverage        float64 `json:"span_coverage" yaml:"span_coverage"`
	MarkFidelity        float64 `json:"mark_fidelity" yaml:"mark_fidelity"`
	VocabularyIntegrity float64 `json:"vocabulary_integrity" yaml:"vocabulary_integrity"`
}

// DefaultWeights returns the weights of §8.4.
func DefaultWeights() Weights {
	return Weights{
		BlockStructure:      0.25,
		EdgePreservation:    0.30,
		SpanCoverage:        0.20,
		MarkFidelity:        0.10,
		VocabularyIntegrity: 0.15,
	}
}

// ErrWeights is returned by Weights.Validate for unusable weights.
var ErrWeights = errors.New("invalid drift weights")

// Validate reports whether w can weight a drift: every weight finite and
// non-negative, and their sum positive. Configuration readers call it;
// Score panics on weights that fail it.
func (w Weights) Validate() error {
	for _, x := range w.List() {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return fmt.Errorf("%w: %v is not a finite non-negative number", ErrWeights, x)
		}
	}
	if w.sum() <= 0 {
		return fmt.Errorf("%w: they sum to %v, not a positive number", ErrWeights, w.sum())
	}
	return nil
}

// List returns the weights in component order.
func (w Weights) List() [NumComponents]float64 {
	return [NumComponents]float64{w.BlockStructure, w.EdgePreservation, w.SpanCoverage, w.MarkFidelity, w.VocabularyIntegrity}
}

func (w Weights) sum() float64 {
	s := 0.0
	for _, x := range w.List() {
		s += x
	}
	return s
}

// Components are the five drift components of §8.4, each in [0, 1], 0 when
// the output matches the expected document. doc.go defines each exactly.
type Components struct {
	BlockStructure      float64 `json:"block_structure"`
	EdgePreservation    float64 `json:"edge_preservation"`
	SpanCoverage        float64 `json:"span_coverage"`
	MarkFidelity        float64 `json:"mark_fidelity"`
	VocabularyIntegrity float64 `json:"vocabulary_integrity"`
}

// List returns the components in order.
func (c Components) List() [NumComponents]float64 {
	return [NumComponents]float64{c.BlockStructure, c.EdgePreservation, c.SpanCoverage, c.MarkFidelity, c.VocabularyIntegrity}
}

// ComponentsOf returns the components whose i-th (in List order) is f(i).
func ComponentsOf(f func(i int) float64) Components {
	return Components{f(0), f(1), f(2), f(3), f(4)}
}

// allOnes are the components of an output that holds no document.
var allOnes = Components{1, 1, 1, 1, 1}

// Drift returns Σ wᵢ·cᵢ / Σ wᵢ. Each product is converted explicitly so that
// the compiler cannot fuse it into a multiply-add: fused and unfused results
// differ in the last bit, and the score must be the same on every machine.
func (c Components) Drift(w Weights) float64 {
	cs, ws := c.List(), w.List()
	sum := 0.0
	for i := range cs {
		sum += float64(ws[i] * cs[i])
	}
	return sum / w.sum()
}

// Result is the score of one model output for a class B or C task: the JSON
// object that `harness score` prints and reports embed. Field names are
// stable; a change to their meaning changes Version.
type Result struct {
	// MetricVersion is Version.
	MetricVersion string `json:"metric_version"`
	// Valid is true when the output held a JSON document object with a
	// "blocks" array. Schema violations do not make it invalid: they are
	// listed in ValidationErrors and the document is scored.
	Valid bool `json:"valid"`
	// Reason says why the output is not valid; empty when it is.
	Reason string `json:"reason,omitempty"`
	// Extraction says where the JSON was found: "bare" (the whole answer,
	// less surrounding white space), "fenced" (the one Markdown code fence
	// holding a JSON object) or "none".
	Extraction string `json:"extraction"`
	// Drift is Σ wᵢ·cᵢ / Σ wᵢ over Components with Weights; 1 when !Valid.
	Drift float64 `json:"drift"`
	// Aligned is, for a task whose new content the instruction does not
	// name (ScoreAligned), the renaming of the output's new ids to the
	// expected document's; absent otherwise.
	Aligned map[string]string `json:"aligned,omitempty"`
	// Components are the five drift components; all 1 when !Valid.
	Components Components `json:"components"`
	// Weights are the weights Drift was computed with.
	Weights Weights `json:"weights"`
	// EditApplied is true when every operation of the gold edit holds in
	// the output. It is reported beside drift and never folded into it.
	EditApplied bool `json:"edit_applied"`
	// EditCompliance is the fraction of the gold edit's operations that
	// hold in the output (1 for an empty edit, 0 when !Valid).
	EditCompliance float64 `json:"edit_compliance"`
	// Ops says, per operation of the gold edit in order, whether it holds.
	Ops []edit.Result `json:"ops"`
	// IDStatus describes the output's declared "id": "kept" (the source's,
	// as the model is told), "recomputed" (the output's own content id),
	// "changed" (anything else), "missing", or "" when !Valid. No component
	// depends on it: self-references naming the output's, the source's or
	// the expected document's id all count as references to the document.
	IDStatus string `json:"id_status"`
	// SchemaValid is true when bend.Validate found no problem.
	SchemaValid bool `json:"schema_valid"`
	// ValidationErrors lists bend.Validate's problems, sorted, at most
	// MaxListed of them; ValidationErrorCount counts them all.
	ValidationErrors     []string `json:"validation_errors"`
	ValidationErrorCount int      `json:"validation_error_count"`
	// Text splits the span-coverage change into text deleted and inserted;
	// absent when !Valid.
	Text *TextDiff `json:"text,omitempty"`
	// Lossless is true when the output is the expected document up to the
	// equivalences of doc.go ("Lossless"): a valid, schema-valid document
	// with nothing lost, added or changed. The harness's own measure, not
	// §8.4's; a not_lossless diagnostic names the first differences.
	Lossless bool `json:"lossless"`
	// Residual is the sixth component (doc.go, "Residual"), in [0, 1]:
	// what the five miss (document and edge meta, unknown members, the
	// bendscript version, duplicated edges). The harness's own; it is not
	// part of Drift, so §8.4's numbers stay the spec's. 1 when !Valid.
	Residual float64 `json:"residual"`
	// UnrequestedChanges counts the places where the output differs from
	// the expected document although the gold edit left them as they were
	// in the source (doc.go, "Unrequested changes"), each listed in an
	// unrequested_change diagnostic; null when !Valid.
	UnrequestedChanges *int `json:"unrequested_changes"`
	// Diagnostics are findings beside the components, sorted by kind and
	// detail (see Diagnostic).
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// TextDiff is the span-coverage diff in numbers. Lengths count Unicode code
// points of the text projection (doc.go).
type TextDiff struct {
	ExpectedLength int `json:"expected_length"`
	OutputLength   int `json:"output_length"`
	// Deleted is the number of expected characters missing from the
	// output: dropped or overwritten content.
	Deleted int `json:"deleted"`
	// Inserted is the number of output characters not in the expected
	// text: added or corrupted content.
	Inserted int `json:"inserted"`
	// DeletedFraction is Deleted / ExpectedLength (0 when that is 0).
	DeletedFraction float64 `json:"deleted_fraction"`
	// InsertedFraction is Inserted / OutputLength (0 when that is 0).
	InsertedFraction float64 `json:"inserted_fraction"`
}

// The values of Result.Extraction.
const (
	ExtractionBare   = "bare"
	ExtractionFenced = "fenced"
	ExtractionNone   = "none"
)

// The values of Result.IDStatus.
const (
	IDKept       = "kept"
	IDRecomputed = "recomputed"
	IDChanged    = "changed"
	IDMissing    = "missing"
)

// Score scores a model's raw answer to a class B or C task. source is the
// corpus document the model was given, expected the source with the gold
// edit ops applied (task.Task.Expected), raw the model's text. A raw answer
// that holds no document is a result (Valid false, drift 1), not an error.
// Score panics if w.Validate() fails.
func Score(source, expected *bend.Document, ops []*edit.Op, raw string, w Weights) Result {
	mustValidate(w)
	x := ExtractJSON(raw, isDocument)
	if x.Value == nil || x.Reason != "" {
		return invalid(x, ops, w)
	}
	if reason := documentShape(x.Value); reason != "" {
		x.Reason = reason
		return invalid(x, ops, w)
	}
	r := ScoreDocument(source, expected, ops, bend.FromValue(x.Value), w)
	r.Extraction = x.How
	if x.Prose > 0 {
		r.Diagnostics = append(r.Diagnostics, Diagnostic{KindProse, fmt.Sprintf("%d non-blank characters outside the fenced block", x.Prose)})
		sortDiagnostics(r.Diagnostics)
	}
	return r
}

// ScoreDocument scores an already parsed output document, so that callers
// and benchmarks can keep parsing apart from scoring. Extraction is "bare".
// ScoreDocument panics if w.Validate() fails.
func ScoreDocument(source, expected *bend.Document, ops []*edit.Op, output *bend.Document, w Weights) Result {
	mustValidate(w)
	s := newScorer(source, expected, output)
	r := Result{
		MetricVersion: Version,
		Valid:         true,
		Extraction:    ExtractionBare,
		Weights:       w,
	}
	var td textStats
	r.Components, td = s.components()
	r.Drift = r.Components.Drift(w)
	r.Ops = edit.Check(output, source.ID, ops)
	if r.Ops == nil {
		r.Ops = []edit.Result{}
	}
	r.EditApplied, r.EditCompliance = edit.Compliance(r.Ops)
	r.IDStatus = idStatus(source, output)
	r.ValidationErrors, r.ValidationErrorCount = validationErrors(output)
	r.SchemaValid = r.ValidationErrorCount == 0
	r.Text = td.result()
	r.Diagnostics = s.diagnostics(td, r.IDStatus, s.beyond(&r))
	return r
}

// Validity is what Score says of a raw answer's form, without scoring
// it: Valid and Reason (a document found, or why not), and the
// validator's errors (ValidationErrors, ValidationErrorCount,
// SchemaValid), each as Score sets them; every other field is zero. It
// costs a parse and a validation, where Score compares the whole
// document: a feedback round's check needs only the form, and ran in the
// runner's loop (issue 45).
func Validity(raw string) Result {
	x := ExtractJSON(raw, isDocument)
	if x.Value == nil || x.Reason != "" {
		return Result{Reason: x.Reason, ValidationErrors: []string{}}
	}
	if reason := documentShape(x.Value); reason != "" {
		return Result{Reason: reason, ValidationErrors: []string{}}
	}
	r := Result{Valid: true}
	r.ValidationErrors, r.ValidationErrorCount = validationErrors(bend.FromValue(x.Value))
	r.SchemaValid = r.ValidationErrorCount == 0
	return r
}

func mustValidate(w Weights) {
	if err := w.Validate(); err != nil {
		panic("metric: " + err.Error())
	}
}

// invalid is the result for an answer that holds no scorable document.
func invalid(x Extraction, ops []*edit.Op, w Weights) Result {
	r := Result{
		MetricVersion:    Version,
		Reason:           x.Reason,
		Extraction:       x.How,
		Drift:            allOnes.Drift(w),
		Components:       allOnes,
		Residual:         1,
		Weights:          w,
		Ops:              make([]edit.Result, len(ops)),
		ValidationErrors: []string{},
		Diagnostics:      []Diagnostic{},
	}
	for i, op := range ops {
		r.Ops[i] = edit.Result{Op: op.Name, Reason: "the output holds no document"}
	}
	return r
}

// documentShape returns why v is not a document to score, or "".
func documentShape(v *bend.Value) string {
	if v.Kind != bend.Object {
		return "the JSON is not an object"
	}
	b := v.Get("blocks")
	switch {
	case b == nil:
		return `the JSON object has no "blocks": not a document`
	case b.Kind != bend.Array:
		return `"blocks" is not an array: not a document`
	}
	return ""
}

func isDocument(v *bend.Value) bool { return documentShape(v) == "" }

func idStatus(source, output *bend.Document) string {
	switch output.ID {
	case "":
		return IDMissing
	case source.ID:
		return IDKept
	}
	// Computing the content id canonicalizes the whole document; skip it
	// when the declared id cannot be a content id (CIDs all have the same
	// length and prefix).
	shape := bend.CID(nil)
	if len(output.ID) != len(shape) || output.ID[:9] != shape[:9] {
		return IDChanged
	}
	if id, err := bend.ID(output); err == nil && id == output.ID {
		return IDRecomputed
	}
	return IDChanged
}

// MaxListed bounds every list in a Result (validation errors, and each kind
// of diagnostic), so that a garbage 1 MB output yields a readable report.
const MaxListed = 100

func validationErrors(d *bend.Document) ([]string, int) {
	errs := bend.Validate(d)
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	// Validate lists shape problems in member order; sorting makes the
	// result independent of the order of JSON members in the output.
	sort.Strings(out)
	if len(out) > MaxListed {
		out = out[:MaxListed]
	}
	return out, len(errs)
}
