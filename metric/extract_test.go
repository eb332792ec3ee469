package metric

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

func TestExtraction(t *testing.T) {
	const doc = `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[],"edges":[]}`
	for _, tc := range tabletest.Cases(t, []struct {
		name, raw  string
		how        string
		found      bool // a JSON value was extracted
		prose      bool
		wantReason string // substring of the reason, when not found
		reason     string
	}{
		{"bare", doc, ExtractionBare, true, false, "", "the prompt asks for the bare document"},
		{"bare with white space and BOM", "\ufeff\n  " + doc + "\n\n", ExtractionBare, true, false, "", "surrounding white space is not prose"},
		{"fenced json", "```json\n" + doc + "\n```", ExtractionFenced, true, false, "", "the most common deviation"},
		{"fenced tilde", "~~~\n" + doc + "\n~~~\n", ExtractionFenced, true, false, "", "CommonMark allows tildes"},
		{"fenced with prose", "Sure! Here it is:\n```json\n" + doc + "\n```\nDone.", ExtractionFenced, true, true, "", "prose around the fence is counted, not fatal"},
		{"unclosed fence", "```json\n" + doc + "\n", ExtractionFenced, true, false, "", "a fence runs to the end when not closed"},
		{"longer closing fence", "````\n" + doc + "\n`````\n", ExtractionFenced, true, false, "", "a closing fence may be longer"},
		{"code fence plus json fence", "```bash\nls -l\n```\n```json\n" + doc + "\n```", ExtractionFenced, true, true, "", "a fence that is not JSON is prose"},
		{"two documents", "```json\n" + doc + "\n```\n```json\n" + doc + "\n```", ExtractionNone, false, false, "2 fenced blocks", "two candidate documents are ambiguous"},
		{"document and other object", "```json\n{\"note\": 1}\n```\n```json\n" + doc + "\n```", ExtractionFenced, true, true, "", "among several JSON objects, the only document is used"},
		{"prose then bare JSON", "Here is the document: " + doc, ExtractionNone, false, false, "not JSON", "bare means the whole answer"},
		{"empty", " \n", ExtractionNone, false, false, "empty", "nothing to score"},
		{"broken JSON in the fence", "```json\n{\"blocks\": [\n```", ExtractionFenced, false, false, "not JSON", "the reason names the JSON error"},
		{"no JSON at all", "I can't do that.", ExtractionNone, false, false, "not JSON", "refusals are invalid"},
	}) {
		t.Run(tc.name, func(t *testing.T) {
			x := ExtractJSON(tc.raw, isDocument)
			if x.How != tc.how || (x.Value != nil && x.Reason == "") != tc.found || (x.Prose > 0) != tc.prose {
				t.Errorf("got how=%q found=%v prose=%d reason=%q; want how=%q found=%v prose=%v (%s)", x.How, x.Value != nil, x.Prose, x.Reason, tc.how, tc.found, tc.prose, tc.reason)
			}
			if !tc.found && !strings.Contains(x.Reason, tc.wantReason) {
				t.Errorf("reason %q does not mention %q (%s)", x.Reason, tc.wantReason, tc.reason)
			}
		})
	}
}

func TestOutputShapes(t *testing.T) {
	tk := tasks(t)[0]
	exp := string(bend.Marshal(tk.Expected))
	for _, tc := range tabletest.Cases(t, []struct {
		name, raw string
		valid     bool
		schema    bool
		reason    string
	}{
		{"expected", exp, true, true, "the reference itself"},
		{"array", "[]", false, false, "not an object"},
		{"no blocks", `{"bendscript": "0.1"}`, false, false, "an object without blocks is not a document"},
		{"blocks not an array", `{"blocks": "none"}`, false, false, "blocks must be an array"},
		{"schema violations", strings.Replace(exp, `"bendscript": "0.1"`, `"bendscript": "0.2"`, 1), true, false, "a wrong version is scored and listed"},
		{"only blocks", `{"blocks": []}`, true, false, "a bare blocks array is a (bad) document, scored"},
	}) {
		r := score(tk, tc.raw)
		if r.Valid != tc.valid || r.SchemaValid != tc.schema || (tc.valid && !tc.schema) != (r.ValidationErrorCount > 0) {
			t.Errorf("%s: valid=%v schema_valid=%v errors=%v; want valid=%v schema_valid=%v (%s)", tc.name, r.Valid, r.SchemaValid, r.ValidationErrors, tc.valid, tc.schema, tc.reason)
		}
	}
}

func TestIDStatus(t *testing.T) {
	tk := tasks(t)[0]
	out := tk.Expected.Clone()
	if r := ScoreDocument(tk.Source.Doc, tk.Expected, tk.GoldEdit, out, DefaultWeights()); r.IDStatus != IDKept {
		t.Errorf("stale id: %q, want kept", r.IDStatus)
	}
	out.ID = "bagaaierasomethingelse"
	r := ScoreDocument(tk.Source.Doc, tk.Expected, tk.GoldEdit, out, DefaultWeights())
	if r.IDStatus != IDChanged || r.Drift != 0 {
		t.Errorf("changed id: %q, drift %v; want changed, 0", r.IDStatus, r.Drift)
	}
	wantDiagnostic(t, r, KindIDChanged)
	out.ID = ""
	if r := ScoreDocument(tk.Source.Doc, tk.Expected, tk.GoldEdit, out, DefaultWeights()); r.IDStatus != IDMissing {
		t.Errorf("no id: %q, want missing", r.IDStatus)
	}
}

func TestBrokenReferences(t *testing.T) {
	var tk = tasks(t)[0]
	for _, c := range tasks(t) {
		if len(c.Expected.Edges) > 0 {
			tk = c
			break
		}
	}
	out := tk.Expected.Clone()
	out.Edges = append(out.Edges, &bend.Edge{Subject: "bend:" + out.ID + "#blk-nope.spn-1", Predicate: "cites", Object: "bend:#" + out.Blocks[0].ID + ".spn-nope"})
	r := ScoreDocument(tk.Source.Doc, tk.Expected, tk.GoldEdit, out, DefaultWeights())
	n := 0
	for _, d := range r.Diagnostics {
		if d.Kind == KindBrokenReference {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d broken references in %v, want 2", n, r.Diagnostics)
	}
}
