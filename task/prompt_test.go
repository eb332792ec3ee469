package task

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// withoutFormats is the embedded instructions less the format prompts: an
// instructions directory from before answer formats.
func withoutFormats(t *testing.T) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	names, _ := fs.Glob(instructions.FS, "prompts/*.txt")
	for _, n := range names {
		if strings.HasPrefix(n, "prompts/"+FormatPrefix) {
			continue
		}
		b, err := fs.ReadFile(instructions.FS, n)
		if err != nil {
			t.Fatal(err)
		}
		m[n] = &fstest.MapFile{Data: b}
	}
	return m
}

// TestFormatPromptsLeaveDocumentPromptsAlone: the format prompts change
// neither Hash nor the document prompts, and an instructions directory
// without them still loads (a format that needs one is refused by
// NeedFormat, not by LoadPrompts).
func TestFormatPromptsLeaveDocumentPromptsAlone(t *testing.T) {
	s := loadEmbedded(t)
	p, err := LoadPrompts(instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	old, err := LoadPrompts(withoutFormats(t))
	if err != nil {
		t.Fatalf("an instructions directory without format prompts: %v", err)
	}
	if p.Hash != old.Hash || p.FormatHash("") != p.Hash {
		t.Errorf("format prompts changed the prompt hash")
	}
	for _, name := range []string{"json-patch", "bend-ops"} {
		if p.NeedFormat(name) != nil || p.Formats[name] == "" {
			t.Errorf("%s: no prompt loaded", name)
		}
		if err := old.NeedFormat(name); err == nil || !strings.Contains(err.Error(), "format-"+name+".txt") {
			t.Errorf("%s: NeedFormat without the file = %v", name, err)
		}
		if old.FormatHash(name) != old.Hash {
			t.Errorf("%s: FormatHash without the file is not Hash", name)
		}
	}
	tk := *s.Task("02-b")
	for _, f := range []string{"document", "unknown"} {
		tk.Format = f
		if a, b := p.render(&tk), p.render(s.Task("02-b")); a[0] != b[0] || a[1] != b[1] {
			t.Errorf("format %q without an instruction renders differently from the document prompt", f)
		}
	}
}

// TestFormatPromptReplacesTheAnswerInstruction: a class B/C task in a patch
// format is the document prompt with its last paragraph replaced by the
// format's instruction; class A is never changed.
func TestFormatPromptReplacesTheAnswerInstruction(t *testing.T) {
	s := loadEmbedded(t)
	p, err := LoadPrompts(instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	hashes := map[string]bool{p.Hash: true}
	for _, id := range []string{"02-b", "02-c"} {
		for _, name := range []string{"json-patch", "bend-ops"} {
			tk := *s.Task(id)
			tk.Format = name
			sys, doc, body := p.Parts(&tk)
			sys0, doc0, body0 := p.Parts(s.Task(id))
			if sys != sys0 || doc != doc0 {
				t.Errorf("%s %s: the shared prefix changed", id, name)
			}
			keep := body0[:strings.LastIndex(body0, "\n\n")+2]
			if !strings.HasSuffix(body0, "\n\nAnswer with the complete modified JSON document only.") {
				t.Fatalf("%s: the class template's last paragraph is not the document instruction", id)
			}
			if want := keep + strings.TrimRight(p.Formats[name], "\n"); body != want {
				t.Errorf("%s %s: task part\n%s\nwant\n%s", id, name, body, want)
			}
			hashes[p.FormatHash(name)] = true
		}
	}
	if len(hashes) != 3 {
		t.Errorf("%d distinct prompt hashes, want 3 (document, json-patch, bend-ops)", len(hashes))
	}
	a := *s.Task("02-a")
	a.Format = "json-patch"
	if x, y := p.render(&a), p.render(s.Task("02-a")); x[1] != y[1] {
		t.Error("a class A task's prompt changed with a format")
	}
}

func TestWithLastParagraph(t *testing.T) {
	cases := []struct{ body, text, want, reason string }{
		{"a\n\nb\n\nc", "X", "a\n\nb\n\nX", "only the last paragraph goes"},
		{"a\nb", "X", "a\nb\n\nX", "a one-paragraph body keeps its text"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		if got := withLastParagraph(c.body, c.text); got != c.want {
			t.Errorf("withLastParagraph(%q) = %q, want %q: %s", c.body, got, c.want, c.reason)
		}
	}
}

// render returns the messages for t: the system primer, and one user message
// holding the document followed by the task.
func (p *Prompts) render(t *Task) []Message {
	system, doc, body := p.Parts(t)
	return []Message{
		{Role: "system", Content: system},
		{Role: "user", Content: doc + body},
	}
}
