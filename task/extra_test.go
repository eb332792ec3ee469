package task

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"bendscript.com/round-trip-harness/instructions"
)

// embeddedWith is the embedded instructions with file name's text
// replaced by text.
func embeddedWith(t *testing.T, name, text string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	names, _ := fs.Glob(instructions.FS, "prompts/*.txt")
	for _, n := range names {
		b, err := fs.ReadFile(instructions.FS, n)
		if err != nil {
			t.Fatal(err)
		}
		m[n] = &fstest.MapFile{Data: b}
	}
	m[name] = &fstest.MapFile{Data: []byte(text)}
	return m
}

// TestExtraClassPrompts: the produce suite's class templates and the
// projection's rules leave Hash and the other classes' transcript hashes
// alone, reach the prompt of a class P task ({{projection}} quoted), and
// change its transcript hash (TaskHash) when either text changes, so a
// resume never keeps an answer to another prompt.
func TestExtraClassPrompts(t *testing.T) {
	s := loadEmbedded(t)
	p, err := LoadPrompts(instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	if p.Extra[ClassP] == "" || p.Extra[ClassR] == "" || p.Projection == "" {
		t.Fatalf("class P, class R or the projection's rules not loaded")
	}
	b := s.Task("02-b")
	if p.TaskHash(b) != p.FormatHash(b.Format) {
		t.Errorf("a class B task's prompt hash changed with the extra classes")
	}
	pt := *b
	pt.Class, pt.Format = ClassP, ""
	_, _, body := p.Parts(&pt)
	if !strings.Contains(body, "{#blk-7f3a}") || strings.Contains(body, ProjectionRules) {
		t.Errorf("a class P prompt does not quote the projection's rules:\n%s", body)
	}
	for _, file := range []string{"prompts/class-p.txt", "prompts/projection.txt"} {
		q, err := LoadPrompts(embeddedWith(t, file, "changed {{projection}}\n"))
		if err != nil {
			t.Fatal(err)
		}
		if q.Hash != p.Hash {
			t.Errorf("%s: changed Hash", file)
		}
		if q.TaskHash(&pt) == p.TaskHash(&pt) {
			t.Errorf("%s: a changed text left the class P prompt hash as it was", file)
		}
	}
}
