package task

import (
	"bytes"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestNaturalTasks: the embedded natural tasks load, one per class B/C
// task, each rewording its forward task on the same document, and each
// expected document is the forward one up to the names of new ids.
func TestNaturalTasks(t *testing.T) {
	s := loadEmbedded(t)
	if probs := CheckNatural(s); len(probs) > 0 {
		t.Fatalf("CheckNatural: %v", probs)
	}
	if len(s.Natural) != 40 {
		t.Fatalf("%d natural tasks, want 40", len(s.Natural))
	}
	for _, nt := range s.Natural {
		fwd := nt.Forward
		if fwd == nil || fwd.ID != nt.ID || fwd.Class != nt.Class || fwd.DocumentName != nt.DocumentName || nt.Source != fwd.Source {
			t.Errorf("%s: forward task %+v", nt.ID, fwd)
			continue
		}
		if nt.Hash == "" || nt.Hash == fwd.Hash {
			t.Errorf("%s: hash %q, want the natural file's own", nt.ID, nt.Hash)
		}
		// Renaming the default names back to the forward ids gives the
		// forward expected document exactly.
		names, err := edit.MatchNames(nt.GoldEdit, fwd.GoldEdit)
		if err != nil {
			t.Fatalf("%s: %v", nt.ID, err)
		}
		got, want := string(bend.Marshal(nt.Expected)), string(bend.Marshal(fwd.Expected))
		for _, p := range edit.Placeholders(nt.GoldEdit) {
			got = strings.ReplaceAll(got, `"`+nt.Names[p]+`"`, `"`+names[p]+`"`)
			got = strings.ReplaceAll(got, `#`+nt.Names[p], `#`+names[p])
			got = strings.ReplaceAll(got, `.`+nt.Names[p]+`"`, `.`+names[p]+`"`)
		}
		if got != want {
			t.Errorf("%s: the default-named expected document, renamed, is not the forward one", nt.ID)
		}
	}
}

// TestNaturalInstructionsNameNoIDs: no natural instruction names a block or
// span of its document by id: targets are named by content or role. (The
// check function only forbids the ids of new content; existing ids are a
// matter of wording, which this pins for the current files.)
func TestNaturalInstructionsNameNoIDs(t *testing.T) {
	s := loadEmbedded(t)
	for _, nt := range s.Natural {
		nt.Source.Doc.Walk(func(b *bend.Block, _ int, _ string) bool {
			if containsID(nt.Instruction, b.ID) {
				t.Errorf("%s: the instruction names block %s", nt.ID, b.ID)
			}
			for _, sp := range b.Spans {
				if containsID(nt.Instruction, sp.ID) {
					t.Errorf("%s: the instruction names span id %s", nt.ID, sp.ID)
				}
			}
			return true
		})
		if strings.Contains(nt.Instruction, "{{doc}}") {
			t.Errorf("%s: the instruction dictates a self-reference", nt.ID)
		}
	}
}

// TestEmbedsNatural: the embedded task directory holds the natural tasks,
// so a run is reproducible from the binary alone.
func TestEmbedsNatural(t *testing.T) {
	names, _ := fs.Glob(instructions.FS, NaturalDir+"/??-?.json")
	if len(names) != 40 {
		t.Errorf("%d embedded natural task files, want 40", len(names))
	}
}

// TestCheckNaturalFailsOnBreakage: every property CheckNatural and
// LoadNatural guard is reported when one file breaks it, naming the file.
func TestCheckNaturalFailsOnBreakage(t *testing.T) {
	t.Parallel()
	const f = "instructions/natural/"
	cases := []struct {
		name   string
		breakf func(t *testing.T, m fstest.MapFS)
		want   string
		reason string
	}{
		{"missing", func(t *testing.T, m fstest.MapFS) {
			delete(m, f+"05-b.json")
		}, f + "05-b.json: missing or unusable natural task for task 05-b", "one natural task per class B/C task"},
		{"orphan", func(t *testing.T, m fstest.MapFS) {
			m[f+"01-a.json"] = m[f+"01-b.json"]
		}, f + "01-a.json: no class B or C task of that id to reword", "class A tasks have no natural rewording"},
		{"quote-twice", func(t *testing.T, m fstest.MapFS) {
			// "Fixed" opens two entries of the changelog.
			edit1(t, m, f+"12-c.json", `"issue #412"
  ]`, `"issue #412", "Fixed"
  ]`)
			edit1(t, m, f+"12-c.json", `The link on \"issue #412\"`, `The link on \"issue #412\" in a \"Fixed\" entry`)
		}, f + `12-c.json: /quotes/1: "Fixed" occurs 2 times`, "a quote must pick out one place"},
		{"quote-absent", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"10-b.json", `\"that is the last page\"`, `\"that is the final page\"`)
			edit1(t, m, f+"10-b.json", `"that is the last page"`, `"that is the final page"`)
		}, f + `10-b.json: /quotes/0: "that is the final page" occurs 0 times`, "a quote must be in the source, verbatim"},
		{"quote-not-in-instruction", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"02-b.json", `containing \"ten-millionth\"`, `containing ten-millionth`)
		}, f + `02-b.json: /quotes/0: "ten-millionth" is not a double-quoted phrase of the instruction`, "quotes are phrases of the instruction"},
		{"unrecorded-phrase", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"11-b.json", `In the methods note`, `In the \"Methods note\"`)
		}, f + `11-b.json: /instruction: the phrase "Methods note" is neither one of quotes nor a text the gold edit writes`, "every phrase that names a target is checked"},
		{"new-text-not-given", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"09-b.json", `\"Excerpt from the sync protocol draft, section 4.2 (conflict resolution):\"`, `an excerpt heading`)
		}, f + `09-b.json: /instruction: does not give the text "Excerpt from the sync protocol draft, section 4.2 (conflict resolution):"`, "new text is never left to taste"},
		{"dictates-new-id", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"03-b.json", `a new paragraph whose`, `a new paragraph blk-a41c whose`)
		}, f + "03-b.json: /instruction: dictates blk-a41c, the id of new content", "the forward task's new ids are not dictated"},
		{"dictates-default-name", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"03-b.json", `a new paragraph whose`, `a new paragraph spn-n001 whose`)
		}, f + "03-b.json: /instruction: dictates spn-n001, the id of new content", "nor the default names"},
		{"placeholder-in-instruction", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"03-b.json", `a new paragraph whose`, `a new paragraph $new1 whose`)
		}, f + "03-b.json: /instruction: contains a placeholder", "placeholders are for gold edits"},
		{"literal-new-id", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"02-c.json", `"id": "$new1"`, `"id": "spn-04"`)
		}, f + `02-c.json: /gold_edit: operation 0 (supersede_span): new span "spn-04" is not a placeholder`, "new content is named by placeholders"},
		{"other-text", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"06-b.json", `"text": "Two dehydrated dinners, oats for breakfast, 400 g`, `"text": "Two dehydrated dinners, oats for breakfast, 450 g`)
		}, f + "06-b.json: /gold_edit: with the ids of 06-b it is", "the natural edit is the forward one"},
		{"other-place", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"04-b.json", `"after": "blk-6b41"`, `"after": "blk-6b43"`)
		}, f + "04-b.json: /gold_edit: not the gold edit of 04-b up to the ids of new content: operation 0 (insert_block): blk-6b43 where the other edit has blk-6b41", "the same place as the forward edit"},
		{"does-not-apply", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"09-b.json", `"after": "blk-9d02"`, `"after": "blk-nope"`)
		}, f + "09-b.json: /gold_edit: does not apply", "the default-named edit must apply"},
		{"kind-clash", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"03-b.json", `"id": "$new2"`, `"id": "$new1"`)
		}, f + "03-b.json: /gold_edit: placeholders: operation 0 (insert_block): $new1 names a span here and a block before", "a placeholder names one kind of id"},
		{"no-quotes-member", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, f+"04-c.json", `"quotes": [],`, ``)
		}, f + "04-c.json: /quotes: missing", "quotes are stated, even when empty"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) { wantProblem(t, c.breakf, c.want, c.reason) })
	}
}

func TestQuotedPhrases(t *testing.T) {
	cases := []struct {
		in     string
		want   []string
		reason string
	}{
		{`change "a b" to "c"`, []string{"a b", "c"}, "plain phrases"},
		{"meta `{\"x\": 1}` and \"y\"", []string{"y"}, "backtick spans hold literal values, not phrases"},
		{`code "f(\"x\")\n\ty"`, []string{"f(\"x\")\n\ty"}, "a phrase with escapes is a JSON string, decoded"},
		{`a "C:\d" path`, []string{`C:\d`}, "a backslash that is not a JSON escape stays literal"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		got, err := quotedPhrases(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("quotedPhrases(%q) = %q, %v; want %q: %s", c.in, got, err, c.want, c.reason)
		}
	}
	for _, in := range []string{`an "open phrase`, "a `literal"} {
		if _, err := quotedPhrases(in); err == nil {
			t.Errorf("quotedPhrases(%q): no error for an unbalanced quote", in)
		}
	}
}

func TestOccurrences(t *testing.T) {
	cases := []struct {
		texts  []string
		q      string
		want   int
		reason string
	}{
		{[]string{"abc", "xabcx"}, "abc", 2, "every text counts"},
		{[]string{"aaa"}, "aa", 2, "overlapping occurrences are two places"},
		{[]string{"Café"}, "Cafe", 0, "verbatim: no normalization, no case folding"},
		{[]string{"abc"}, "", 0, "an empty quote names nothing"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		if got := occurrences(c.texts, c.q); got != c.want {
			t.Errorf("occurrences(%q, %q) = %d, want %d: %s", c.texts, c.q, got, c.want, c.reason)
		}
	}
}

func TestSourceText(t *testing.T) {
	d, err := bend.Parse([]byte(`{"bendscript":"0.1","id":"x","vocabulary":"core","title":"T","blocks":[
		{"id":"b1","kind":"paragraph","spans":[{"id":"s1","text":"one "},{"id":"s2","text":null},{"id":"s3","text":"two"}]},
		{"id":"c1","kind":"code","language":"go","text":"x := 1"}],"edges":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"T", "one two", "x := 1"}
	if got := sourceText(d); !slices.Equal(got, want) {
		t.Errorf("sourceText = %q, want %q (title, block text across spans and tombstones, code)", got, want)
	}
}

func TestContainsID(t *testing.T) {
	cases := []struct {
		s, id  string
		want   bool
		reason string
	}{
		{"span spn-02 here", "spn-02", true, "a whole id"},
		{"span spn-02a here", "spn-02", false, "a longer id is another id"},
		{"bend:#blk-1.spn-02", "spn-02", true, "inside a reference"},
		{"xblk-1", "blk-1", false, "a longer id on the left"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		if got := containsID(c.s, c.id); got != c.want {
			t.Errorf("containsID(%q, %q) = %v, want %v: %s", c.s, c.id, got, c.want, c.reason)
		}
	}
}

// TestNaturalDefaultNamesInExpected: the expected document of a natural
// task carries the default names, not placeholders.
func TestNaturalDefaultNamesInExpected(t *testing.T) {
	s := loadEmbedded(t)
	for _, nt := range s.Natural {
		if b := bend.Marshal(nt.Expected); bytes.Contains(b, []byte("$new")) {
			t.Errorf("%s: a placeholder in the expected document", nt.ID)
		}
		for p, name := range nt.Names {
			if !strings.HasPrefix(name, "blk-n") && !strings.HasPrefix(name, "spn-n") {
				t.Errorf("%s: %s named %q", nt.ID, p, name)
			}
		}
	}
}
