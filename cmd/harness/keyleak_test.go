package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/projection"
)

// leakKey is the key the runs of this file send (TestMain's); plantKey
// hides it in an answer of each format so that the body's own redaction
// cannot see it.
const leakKey = testKey

// givenDocument is the document a request gives: the first JSON object
// of its user message.
func givenDocument(req modeltest.ChatRequest) []byte {
	text := req.Messages[1].Content
	i := strings.IndexByte(text, '{')
	if i < 0 {
		return nil
	}
	var doc json.RawMessage
	if json.NewDecoder(strings.NewReader(text[i:])).Decode(&doc) != nil {
		return nil
	}
	return doc
}

// plantKey answers req in the format its prompt asks for, with the key
// hidden as only that format's reading reveals it: a projection's own
// escape (s\k-or…), two search/replace blocks that splice it together,
// JSON escapes inside a patch's or an operation's value or the document.
func plantKey(req modeltest.ChatRequest) modeltest.Reply {
	prompt := req.Messages[1].Content
	given := givenDocument(req)
	escaped := strings.ReplaceAll(leakKey, "-", `\u002d`)
	doc, _ := bend.Parse(given)
	switch {
	case strings.Contains(prompt, "Answer with SEARCH/REPLACE blocks"):
		line := ""
		for _, l := range strings.Split(string(given), "\n") {
			if strings.Contains(l, `"bendscript"`) {
				line = l
				break
			}
		}
		k := len(leakKey) - 5
		spliced := leakKey[:k] + "@@" + leakKey[k:]
		return modeltest.Text(formats.Block(line, line+` "note": "`+spliced+`",`) + formats.Block(leakKey[k-2:k]+"@@"+leakKey[k:k+2], leakKey[k-2:k+2]))
	case strings.Contains(prompt, "Answer with a JSON Patch"):
		return modeltest.Text(`[{"op":"add","path":"/note","value":"` + escaped + `"}]`)
	case strings.Contains(prompt, "Answer with a JSON array of edit operations") && doc != nil:
		for _, b := range doc.Blocks {
			if len(b.Spans) > 0 {
				return modeltest.Text(fmt.Sprintf(`[{"op":"set_text","block":%q,"span":%q,"text":"%s"}]`, b.ID, b.Spans[0].ID, escaped))
			}
		}
	case strings.Contains(prompt, "text projection only") && doc != nil:
		text, _ := projection.Render(doc)
		plant := "[s\\" + leakKey[1:] + "]{#spn-planted} {#blk-planted}\n\n"
		if i := strings.Index(text, projection.EdgesLine); i >= 0 {
			return modeltest.Text(text[:i] + plant + text[i:])
		}
		return modeltest.Text(text + "\n" + plant)
	}
	if strings.Contains(prompt, "(produce)") || doc != nil {
		// A whole document (class P, or the document format).
		return modeltest.Text(`{"note": "` + escaped + `", "bendscript": "0.1", "id": "unknown", "vocabulary": "core", "blocks": [], "edges": []}`)
	}
	return modeltest.Text(`{"answer": "` + escaped + `", "evidence": []}`)
}

// TestPlantedKeyIsRevealedByEachFormat checks the plants themselves: read
// in its format, each answer spells the key (else the test below would
// prove nothing).
func TestPlantedKeyIsRevealedByEachFormat(t *testing.T) {
	t.Parallel()
	src := mustRead(t, "../../corpus/01-"+firstCorpusName(t))
	for _, f := range []string{formats.SearchReplace, formats.Projection} {
		prompt := map[string]string{formats.SearchReplace: "Answer with SEARCH/REPLACE blocks", formats.Projection: "text projection only"}[f]
		req := modeltest.ChatRequest{Messages: []modeltest.Message{{}, {Content: string(src) + "\n" + prompt}}}
		answer := plantKey(req).Content
		if strings.Contains(answer, leakKey) {
			t.Errorf("%s: the answer holds the key in clear; the plant must hide it", f)
		}
		out, fail := formats.Lookup(f).Apply(src, answer)
		if fail != nil || !model.SpellsKey(string(out), leakKey) {
			t.Errorf("%s: read in its format the answer does not spell the key (%v)", f, fail)
		}
	}
}

func firstCorpusName(t *testing.T) string {
	m, _ := filepath.Glob("../../corpus/01-*.bend.json")
	if len(m) != 1 {
		t.Fatal("no corpus document 01")
	}
	return strings.TrimPrefix(filepath.Base(m[0]), "01-")
}

// TestKeyPlantedInEveryFormatInNoFile is issue 45's done-when: the key,
// planted by the server in every answer format and in produce and relay
// chains, is in no file under runs/ or reports/, in no output (the run's,
// show's) and in no request sent on (a chain's next step).
func TestKeyPlantedInEveryFormatInNoFile(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		args   []string
		show   string
		reason string
	}{
		{"formats", []string{"--formats", "document,json-patch,bend-ops,search-replace,projection", "--docs", "01", "--classes", "a,b,c"}, "01-b.search-replace",
			"every answer format, and show of a spliced search/replace answer"},
		{"relay", []string{"--suite", "relay", "--steps", "2", "--formats", "search-replace,projection", "--docs", "01"}, "",
			"step 2's request is built from step 1's decoded answer"},
		{"produce", []string{"--suite", "produce", "--steps", "2", "--docs", "01,02"}, "",
			"the produce chain hands the projection's parse on"},
	}) {
		srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply { return plantKey(req) })
		srv.SetModels(modeltest.Entry("vendor/a"))
		dir := t.TempDir()
		args := append([]string{"run", "--config", "../../harness.yaml", "--models", "vendor/a", "--judges", "offline/judge",
			"--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports"), "--run-id", "k", "--progress", "none", "--base-url", srv.URL}, c.args...)
		out, errs, code := runCLI(t, args...)
		if code > 1 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errs)
		}
		outputs := []string{out, errs}
		if html := mustRead(t, filepath.Join(dir, "reports", "k.html")); !strings.Contains(string(html), "the answer was withheld: read in its answer format it spelled the API key") {
			t.Errorf("%s: the report does not say why an answer was withheld", c.name)
		}
		if c.show != "" {
			out, errs, _ := runCLI(t, "show", filepath.Join(dir, "runs", "k"), c.show)
			outputs = append(outputs, out, errs)
		}
		for i, o := range outputs {
			if model.SpellsKey(o, leakKey) {
				t.Errorf("%s: output %d spells the key", c.name, i)
			}
		}
		for _, req := range srv.Requests() {
			if model.SpellsKey(string(req.Body), leakKey) {
				t.Errorf("%s: a request sent the key back to the provider (%s)", c.name, req.Messages[1].Content[:40])
			}
		}
		files := 0
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			files++
			if b := mustRead(t, p); model.SpellsKey(string(b), leakKey) {
				t.Errorf("%s: %s holds the key", c.name, p)
			}
			return nil
		})
		if files == 0 {
			t.Errorf("%s: no file written", c.name)
		}
	}
}
