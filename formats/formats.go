// Package formats is the table of answer formats (issue 22): how a class B
// or C task asks for its answer, and how that answer becomes the output
// document that the metric scores.
//
//	document    the whole modified document, as §8 asks (the answer is scored as it is)
//	json-patch  an RFC 6902 JSON Patch against the document exactly as given, applied with github.com/evanphx/json-patch/v5
//	bend-ops    a JSON array of operations of the gold-edit language (instructions/FORMAT.md), addressed by ids, applied by package edit
//	search-replace  Aider-style SEARCH/REPLACE blocks applied in order to the document's text, each SEARCH occurring exactly once (searchreplace.go)
//	projection  the whole document in the harness's text projection (package projection), parsed back (projection.go)
//
// A patch answer is applied to the document the model was given; the result
// is then scored exactly like a document answer. An answer that is not JSON,
// does not parse as its format, or fails to apply is a *Failure (an invalid
// answer, drift 1), with the failing operation and why: never a panic.
//
// Each format also writes answers (Answer: what offline/oracle says) and
// makes its own kind of mistake (Slip: what offline/noisy says), so that the
// reference models answer every format without code of their own per format.
package formats

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
)

// The format names.
const (
	Document  = "document"
	JSONPatch = "json-patch"
	BendOps   = "bend-ops"
)

// A Format is one entry of the table.
type Format struct {
	Name string // "document", "json-patch", "bend-ops"
	Help string // one line, for flag help
	// Whole is set on the format that answers with the whole document,
	// as §8 asks: the verdict's classes are its answers.
	Whole bool
	// Prompt is the file under instructions/prompts/ whose text replaces
	// the class B/C template's last paragraph ("Answer with the complete
	// modified JSON document only."); "" for document.
	Prompt string
	// Apply turns a raw answer into the output document's JSON, given the
	// document exactly as the model was given it (its bytes). document
	// returns raw unchanged (the metric extracts and judges it as today).
	// A failure is returned as *Failure, never a panic.
	Apply func(given []byte, raw string) ([]byte, *Failure)
	// Answer writes the exact answer in this format that turns given into
	// target; ops is the gold edit that does it (bend-ops answers with
	// ops; json-patch diffs given→target; document marshals target).
	Answer func(given []byte, target *bend.Document, ops []*edit.Op) (string, error)
	// Unit names what an answer is made of, for failure messages
	// ("operation", "block"); "" is "operation".
	Unit string
	// Slip makes one format-specific mistake in an answer, deterministic
	// given r; it returns the answer unchanged and "" when it cannot, else
	// the new answer and what it did.
	Slip func(answer string, r *rand.Rand) (string, string)
}

// Table lists the formats in --formats help order.
var Table = []*Format{
	{
		Name:  Document,
		Help:  "the complete modified document (as §8 asks)",
		Whole: true,
		Apply: func(_ []byte, raw string) ([]byte, *Failure) { return []byte(raw), nil },
		Answer: func(_ []byte, target *bend.Document, _ []*edit.Op) (string, error) {
			return string(bend.Marshal(target)), nil
		},
		Slip: func(answer string, _ *rand.Rand) (string, string) { return answer, "" },
	},
	{
		Name:   JSONPatch,
		Help:   "an RFC 6902 JSON Patch against the document as given",
		Prompt: "format-json-patch.txt",
		Apply:  guard(JSONPatch, applyJSONPatch),
		Answer: answerJSONPatch,
		Slip:   slipJSONPatch,
	},
	{
		Name:   BendOps,
		Help:   "operations of the gold-edit language, addressed by BendScript ids",
		Prompt: "format-bend-ops.txt",
		Apply:  guard(BendOps, applyBendOps),
		Answer: answerBendOps,
		Slip:   slipBendOps,
	},
	{
		Name:   SearchReplace,
		Help:   "SEARCH/REPLACE blocks on the document's text, as coding agents edit files",
		Prompt: "format-search-replace.txt",
		Apply:  guard(SearchReplace, applySearchReplace),
		Answer: answerSearchReplace,
		Unit:   "block",
		Slip:   slipSearchReplace,
	},
	{
		Name:   Projection,
		Help:   "the whole document in the harness's text projection (docs/projection.md)",
		Prompt: "format-projection.txt",
		Apply:  guard(Projection, applyProjection),
		Answer: answerProjection,
		Unit:   "line",
		Slip:   slipProjection,
	},
}

// guard makes a format's Apply a total function: a panic while reading or
// applying one answer (a hostile answer meeting a parser's edge) is that
// answer's Failure, never a crash of the run, a rescore or a resume that
// reads it (issue 45: a projection nested 65 deep crashed a paid run).
func guard(name string, apply func(given []byte, raw string) ([]byte, *Failure)) func([]byte, string) ([]byte, *Failure) {
	return func(given []byte, raw string) (out []byte, fail *Failure) {
		defer func() {
			if p := recover(); p != nil {
				out, fail = nil, whole(name, Failed, Crashed(p))
			}
		}()
		return apply(given, raw)
	}
}

// Crashed is the reason given for an answer on which the harness's own
// code panicked: the answer is invalid, and the reason says it is the
// harness's failure, so that it can be reported and fixed.
func Crashed(p any) string {
	return fmt.Sprintf("the harness failed while reading this answer (%s); it is scored as an invalid answer", cut(oneLine(fmt.Sprint(p)), MaxText))
}

// Lookup returns the format called name ("" is Document), or nil.
func Lookup(name string) *Format {
	if name == "" {
		name = Document
	}
	for _, f := range Table {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Of returns the format called name as Lookup does ("" is Document, a
// task or score recorded before formats); for a name the table does not
// have (a report of another harness version) it returns a format of that
// name that is not the whole document and applies nothing, so that a
// reader shows it as recorded.
func Of(name string) *Format {
	if f := Lookup(name); f != nil {
		return f
	}
	return &Format{Name: name}
}

// HasWhole reports whether the formats names include the whole document.
func HasWhole(names []string) bool {
	for _, n := range names {
		if Of(n).Whole {
			return true
		}
	}
	return false
}

// Several reports whether a run asking for the formats names compares
// answer formats: more than one, or one that is not the whole document.
func Several(names []string) bool {
	return len(names) > 1 || (len(names) == 1 && !Of(names[0]).Whole)
}

// Names returns the names of the formats, in table order.
func Names() []string {
	out := make([]string, len(Table))
	for i, f := range Table {
		out[i] = f.Name
	}
	return out
}

// Parse reads a comma-separated list of format names ("document,json-patch")
// and returns them in table order without duplicates. An unknown name is an
// error that lists the known ones; so is an empty list.
func Parse(list string) ([]string, error) {
	seen := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if Lookup(n) == nil {
			return nil, fmt.Errorf("unknown answer format %q (have %s)", n, strings.Join(Names(), ", "))
		}
		seen[n] = true
	}
	if len(seen) == 0 {
		return nil, fmt.Errorf("no answer format given (have %s)", strings.Join(Names(), ", "))
	}
	var out []string
	for _, f := range Table {
		if seen[f.Name] {
			out = append(out, f.Name)
		}
	}
	return out, nil
}

// The kinds of Failure.
const (
	NotJSON   = "not_json"   // no JSON array found in the answer
	NotFormat = "not_format" // JSON, but not a list of this format's operations
	Failed    = "failed"     // an operation failed to apply
)

// Failure says why a patch answer gives no document: an invalid answer,
// recorded with the failing operation.
type Failure struct {
	Format string // the format's name
	Kind   string // NotJSON, NotFormat or Failed; search-replace's own kinds (searchreplace.go)
	Op     int    // 0-based index of the failing operation (or block; for the projection, the 1-based line); -1 when the answer as a whole failed
	Text   string // the failing operation as written (compact JSON, cut to at most MaxText bytes); "" when Op is -1
	Reason string // why, one line
}

// MaxText bounds Failure.Text.
const MaxText = 200

// Error prints the failure as
// `json-patch: operation 3 {"op":"replace",...}: why`, or
// `json-patch: why` when the answer as a whole failed; a format's Unit
// replaces "operation" (`search-replace: block 1 SEARCH "...": why`).
func (f *Failure) Error() string {
	if f.Op < 0 {
		return fmt.Sprintf("%s: %s", f.Format, f.Reason)
	}
	unit := "operation"
	if form := Lookup(f.Format); form != nil && form.Unit != "" {
		unit = form.Unit
	}
	return fmt.Sprintf("%s: %s %d %s: %s", f.Format, unit, f.Op, f.Text, f.Reason)
}

// whole is a Failure of the answer as a whole.
func whole(format, kind, reason string) *Failure {
	return &Failure{Format: format, Kind: kind, Op: -1, Reason: oneLine(reason)}
}

// at is a Failure of operation i, written v.
func at(format, kind string, i int, v *bend.Value, reason string) *Failure {
	return &Failure{Format: format, Kind: kind, Op: i, Text: cut(string(bend.MarshalValue(v)), MaxText), Reason: oneLine(reason)}
}

// cut returns s cut to at most n bytes on a UTF-8 boundary, ending in "..."
// when cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n - 3
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + "..."
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// kindName names a JSON value's kind for reasons.
func kindName(v *bend.Value) string {
	names := map[bend.Kind]string{bend.Null: "null", bend.Bool: "a boolean", bend.Number: "a number",
		bend.String: "a string", bend.Array: "an array", bend.Object: "an object"}
	if n, ok := names[v.Kind]; ok {
		return n
	}
	return "a value"
}

// isArray is the want of metric.ExtractJSONArray: any array.
func isArray(v *bend.Value) bool { return v.Kind == bend.Array }

// marshalArray writes elems as one compact JSON array.
func marshalArray(elems []*bend.Value) string {
	if elems == nil {
		elems = []*bend.Value{}
	}
	return string(bend.MarshalValue(&bend.Value{Kind: bend.Array, Elems: slices.Clone(elems)}))
}
