package formats_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/task/tasktest"
)

var block = formats.Block

// The text of span spn-02 of blk-4a90 in document 02, and a new one.
const (
	span02 = `          "text": "one ten-millionth of the distance from the North Pole to the equator"`
	new02  = `          "text": "one ten-millionth of the meridian quadrant"`
)

// TestSearchReplaceFailures: each way a search-replace answer fails gives
// its kind, the index of the block that failed, an excerpt and a reason
// that names the cause.
func TestSearchReplaceFailures(t *testing.T) {
	cases := []struct {
		name, answer     string
		kind             string
		block            int
		text, wantReason string // substrings of Failure.Text and Failure.Reason
		reason           string
	}{
		{"no blocks", `[{"op":"remove","path":"/blocks/0"}]`, formats.NoBlocks, -1, "", "holds no block",
			"an answer in another format has no block to apply"},
		{"not found", block(span02, new02) + block(`          "text": "no such text"`, new02), formats.NotFound, 1, "no such text", "does not occur",
			"the second block's SEARCH is in no line"},
		{"not found after the blocks before", block(span02, new02) + block(span02, new02), formats.NotFound, 1, "North Pole", "after blocks 0 to 0",
			"the first block changed the text the second quotes"},
		{"ambiguous", block(span02, new02) + block(`          "id": "spn-02",`, `          "id": "spn-09",`), formats.Ambiguous, 1, "spn-02", "occurs 2 times",
			"document 02's two paragraphs both have a span spn-02"},
		{"not JSON after the edits", block(span02, new02) + block(`      "id": "blk-4a90",`, `      "id": "blk-4a90"`), formats.EditedNotJSON, 1, "blk-4a90", "not JSON",
			"a comma left out by the second block"},
		{"not closed", formats.SearchMarker + "\n" + span02 + "\n" + formats.DividerMarker + "\n" + new02 + "\n", formats.NotFormat, 0, "SEARCH", "not closed",
			"a block without its REPLACE marker"},
		{"empty SEARCH", block("", new02), formats.NotFormat, 0, "", "SEARCH part is empty",
			"an empty SEARCH occurs everywhere"},
	}
	given := source02(t)
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			_, fail := formats.Lookup(formats.SearchReplace).Apply(given, c.answer)
			if fail == nil {
				t.Fatalf("applied; want %s: %s", c.kind, c.reason)
			}
			if fail.Kind != c.kind || fail.Op != c.block || !strings.Contains(fail.Text, c.text) || !strings.Contains(fail.Reason, c.wantReason) {
				t.Errorf("got %s at %d %s: %q\nwant %s at %d, text holding %q, reason holding %q (%s)", fail.Kind, fail.Op, fail.Text, fail.Reason, c.kind, c.block, c.text, c.wantReason, c.reason)
			}
			if strings.ContainsAny(fail.Error(), "\n") || len(fail.Text) > formats.MaxText {
				t.Errorf("failure is not one short line: %q", fail.Error())
			}
		})
	}
}

// TestSearchReplaceFailureError: a failing block is named as a block.
func TestSearchReplaceFailureError(t *testing.T) {
	_, fail := formats.Lookup(formats.SearchReplace).Apply(source02(t), block(`  "nope"`, `  "x"`))
	if got := fail.Error(); !strings.HasPrefix(got, `search-replace: block 0 SEARCH "  \"nope\"": `) {
		t.Errorf("Error() = %s", got)
	}
}

// TestSearchReplaceTooManyBlocks: a hostile answer of more than MaxBlocks
// blocks is refused before any is applied.
func TestSearchReplaceTooManyBlocks(t *testing.T) {
	raw := strings.Repeat(block(span02, span02), formats.MaxBlocks+1)
	_, fail := formats.Lookup(formats.SearchReplace).Apply(source02(t), raw)
	if fail == nil || fail.Kind != formats.NotFormat || !strings.Contains(fail.Reason, "more than") {
		t.Errorf("got %v; want not_format, too many blocks", fail)
	}
}

// TestSearchReplaceApplies: blocks in a fence with prose around them, in
// CRLF lines, apply in order; a later block sees the text an earlier one
// wrote; the result scores as the edit it makes.
func TestSearchReplaceApplies(t *testing.T) {
	raw := "Here are the edits:\r\n```\r\n" + strings.ReplaceAll(block(span02, new02)+block(new02, span02+` `), "\n", "\r\n") + "```\r\n"
	out, fail := formats.Lookup(formats.SearchReplace).Apply(source02(t), raw)
	if fail != nil {
		t.Fatal(fail)
	}
	d, err := bend.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.FindBlock("blk-4a90").Spans[1].Text; got == nil || *got != "one ten-millionth of the distance from the North Pole to the equator" {
		t.Errorf("span text %v", got)
	}
}

// TestSearchReplaceOracleIsMinimal: the oracle's blocks quote a few lines
// around each change, not the document: under a fifth of the document
// answers' bytes over the corpus, and never the whole document.
func TestSearchReplaceOracleIsMinimal(t *testing.T) {
	blocks, docs := 0, 0
	for _, et := range editTasks(t) {
		ans, err := formats.Lookup(formats.SearchReplace).Answer(et.given, et.expected, et.ops)
		if err != nil {
			t.Fatal(err)
		}
		doc := len(bend.Marshal(et.expected))
		blocks, docs = blocks+len(ans), docs+doc
		if len(ans) >= doc {
			t.Errorf("%s: %d bytes of blocks for a %d-byte document", et.name, len(ans), doc)
		}
		if r := metric.Score(et.source, et.expected, et.ops, ans, metric.DefaultWeights()); r.Valid {
			t.Errorf("%s: the blocks themselves read as a document", et.name)
		}
	}
	t.Logf("blocks %d bytes, documents %d: %.1f%%", blocks, docs, 100*float64(blocks)/float64(docs))
	if blocks*5 > docs {
		t.Errorf("blocks %d bytes, documents %d: over a fifth", blocks, docs)
	}
}

// TestSearchReplaceSlipExamples: the two slips, on a block that quotes
// one line of context.
func TestSearchReplaceSlipExamples(t *testing.T) {
	ans := block("a\n  b", "a\n  c")
	seen := map[string]bool{}
	for seed := range uint64(20) {
		got, what := formats.Lookup(formats.SearchReplace).Slip(ans, rand.New(rand.NewPCG(seed, 1)))
		switch got {
		case block("a\n  b", "  c"):
			seen["context"] = strings.Contains(what, "left out of REPLACE")
		case block(" a\n  b", "a\n  c"), block("a\n b", "a\n  c"):
			seen["indent"] = strings.Contains(what, "indented")
		default:
			t.Errorf("unexpected slip %q (%s)", got, what)
		}
	}
	if !seen["context"] || !seen["indent"] {
		t.Errorf("slips seen %v, want both, each described", seen)
	}
	if got, what := formats.Lookup(formats.SearchReplace).Slip("no blocks", rand.New(rand.NewPCG(1, 1))); got != "no blocks" || what != "" {
		t.Errorf("slipped an answer without blocks: %q", got)
	}
}

// TestSearchReplaceOnCRLFDocument: a document written with CRLF line ends
// failed every search/replace answer of more than one line, the oracle's
// included (0/3 lossless against 3/3 in the other formats): the answer's
// "\r\n" was read as "\n", the given text's was not. Both are now.
func TestSearchReplaceOnCRLFDocument(t *testing.T) {
	set := tasktest.Set(t)
	f := formats.Lookup(formats.SearchReplace)
	for _, id := range []string{"02-b", "05-c", "11-b"} {
		tk := set.Task(id)
		crlf := []byte(strings.ReplaceAll(string(tk.Source.Bytes), "\n", "\r\n"))
		for _, given := range [][]byte{tk.Source.Bytes, crlf} {
			answer, err := f.Answer(given, tk.Expected, tk.GoldEdit)
			if err != nil {
				t.Fatal(err)
			}
			out, fail := f.Apply(crlf, answer)
			if fail != nil {
				t.Errorf("%s: the oracle's answer fails on the CRLF document: %v", id, fail)
				continue
			}
			d, err := bend.Parse(out)
			if err != nil || !bytes.Equal(bend.Marshal(d), bend.Marshal(tk.Expected)) {
				t.Errorf("%s: the CRLF document edited is not the expected document (%v)", id, err)
			}
		}
	}
}
