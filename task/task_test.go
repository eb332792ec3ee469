package task

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

func loadEmbedded(t *testing.T) *Set {
	t.Helper()
	s, probs := Load(corpus.FS, instructions.FS)
	if len(probs) > 0 {
		t.Fatalf("embedded corpus has problems: %v", probs)
	}
	return s
}

func TestCorpusCheckPasses(t *testing.T) {
	s := loadEmbedded(t)
	if probs := Check(s); len(probs) > 0 {
		t.Fatalf("Check: %v", probs)
	}
	if len(s.Tasks) != 60 || len(s.Documents) != 20 {
		t.Fatalf("%d tasks, %d documents", len(s.Tasks), len(s.Documents))
	}
	if _, err := LoadPrompts(instructions.FS); err != nil {
		t.Fatal(err)
	}
}

// copyFS copies the embedded corpus and tasks into one map file system with
// corpus/ and instructions/ prefixes, so a test can break one file.
func copyFS(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for prefix, fsys := range map[string]fs.FS{"corpus/": corpus.FS, "instructions/": instructions.FS} {
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(fsys, p)
			m[prefix+p] = &fstest.MapFile{Data: b}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func edit1(t *testing.T, m fstest.MapFS, name, old, new string) {
	t.Helper()
	f := m[name]
	if f == nil {
		t.Fatalf("no file %s", name)
	}
	s := string(f.Data)
	if !strings.Contains(s, old) {
		t.Fatalf("%s does not contain %q", name, old)
	}
	f.Data = []byte(strings.Replace(s, old, new, 1))
}

func findFile(m fstest.MapFS, prefix string) string {
	for name := range m {
		if strings.HasPrefix(name, prefix) {
			return name
		}
	}
	return ""
}

// TestCorpusCheckFailsOnBreakage: breaking any one document, task or gold
// edit is reported, naming the file.
func TestCorpusCheckFailsOnBreakage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		breakf func(t *testing.T, m fstest.MapFS)
		want   string
		reason string
	}{
		{"invalid-doc", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, findFile(m, "corpus/01-"), `"kind": "heading"`, `"kind": "heading", "level": 9, "x": 1, "y": 2, "z": 3, "w": 4, "v": 5, "u": 6, "kind2": 0, "t": 1, "s": 1, "q": 1, "level2": 1, "kind3": 1`)
		}, "corpus/01-", "a schema violation in a document"},
		{"stale-id", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, findFile(m, "corpus/02-"), `"text": "`, `"text": "X`)
		}, "computed", "an edited document whose id was not recomputed"},
		{"bad-json-task", func(t *testing.T, m fstest.MapFS) {
			m["instructions/03-b.json"].Data = []byte(`{"id": "03-b",`)
		}, "instructions/03-b.json: /: not valid JSON", "a task that is not JSON"},
		{"missing-task", func(t *testing.T, m fstest.MapFS) {
			delete(m, "instructions/05-a.json")
		}, "instructions/05-a.json: missing or unusable task", "60 tasks"},
		{"gold-edit-unknown-span", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, "instructions/01-b.json", `"span": "spn-04"`, `"span": "spn-99"`)
		}, `instructions/01-b.json: /gold_edit: does not apply`, "a gold edit addressing a span that does not exist"},
		{"gold-edit-unknown-op", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, "instructions/02-b.json", `"op": "add_mark"`, `"op": "add_marks"`)
		}, `unknown op "add_marks"`, "an op outside the defined set"},
		{"evidence", func(t *testing.T, m fstest.MapFS) {
			m["instructions/06-a.json"].Data = []byte(strings.Replace(string(m["instructions/06-a.json"].Data), `"evidence": [`, `"evidence": ["blk-nope",`, 1))
		}, `/evidence/0: "blk-nope" is not a block or span`, "class A evidence must exist"},
		{"class-mismatch", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, "instructions/07-b.json", `"class": "B"`, `"class": "C"`)
		}, "the file name says class B", "class must match the file name"},
		{"row16-tombstone", func(t *testing.T, m fstest.MapFS) {
			name := findFile(m, "corpus/16-")
			edit1(t, m, name, `"predicate": "supersedes"`, `"predicate": "cites"`)
			edit1(t, m, name, `"predicate": "supersedes"`, `"predicate": "cites"`)
		}, "no tombstone span", "row 16 must keep a tombstone with its supersedes edge"},
		{"row13-predicates", func(t *testing.T, m fstest.MapFS) {
			for _, p := range []string{"corpus/13-", "corpus/14-"} {
				name := findFile(m, p)
				m[name].Data = []byte(strings.ReplaceAll(string(m[name].Data), `"predicate": "exemplifies"`, `"predicate": "cites"`))
			}
		}, `predicate "exemplifies"`, "rows 13-14 must use all nine core predicates"},
		{"row17-meta", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, findFile(m, "corpus/17-"), `"recall_count"`, `"recall_total"`)
		}, `no "recall_count"`, "row 17 needs the four memory meta fields"},
		{"row20-numbers", func(t *testing.T, m fstest.MapFS) {
			name := findFile(m, "corpus/20-")
			m[name].Data = []byte(strings.ReplaceAll(string(m[name].Data), "9007199254740993", "9007199254740992"))
		}, "no number written 9007199254740993", "row 20 keeps a number beyond float64 precision"},
		{"row20-astral", func(t *testing.T, m fstest.MapFS) {
			name := findFile(m, "corpus/20-")
			s := strings.Map(func(r rune) rune {
				if r > 0xFFFF {
					return 'x'
				}
				return r
			}, string(m[name].Data))
			m[name].Data = []byte(s)
		}, "span text lacks an astral-plane character", "row 20 keeps text beyond the BMP"},
		{"vocabulary", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, findFile(m, "corpus/18-"), `"vocabulary": "bendscript.argument.v1"`, `"vocabulary": "core"`)
		}, `/vocabulary: "core"`, "row 18 uses the argument vocabulary"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) { wantProblem(t, c.breakf, c.want, c.reason) })
	}
}

// wantProblem breaks a copy of the embedded corpus and tasks with breakf,
// loads and checks it as corpus check does, and wants a problem containing
// want; reason says what property the case guards.
func wantProblem(t *testing.T, breakf func(*testing.T, fstest.MapFS), want, reason string) {
	t.Helper()
	m := copyFS(t)
	breakf(t, m)
	cfs, _ := fs.Sub(m, "corpus")
	tfs, _ := fs.Sub(m, "instructions")
	s, probs := Load(cfs, tfs)
	probs = append(probs, Check(s)...)
	var all []string
	for _, p := range probs {
		all = append(all, p.String())
	}
	if joined := strings.Join(all, "\n"); !strings.Contains(joined, want) {
		t.Errorf("%s: want a problem containing %q, got:\n%s", reason, want, joined)
	}
}

// TestGoldEditsChangeExactlyWhatTheySay applies every gold edit and checks
// that the expected document differs from the source exactly at the
// addresses the operations name: no other span, block, edge or header field.
func TestGoldEditsChangeExactlyWhatTheySay(t *testing.T) {
	s := loadEmbedded(t)
	n := 0
	for _, tk := range s.Tasks {
		if tk.Expected == nil {
			continue
		}
		n++
		t.Run(tk.ID, func(t *testing.T) {
			src, exp := tk.Source.Doc, tk.Expected
			allowed := map[string]bool{} // addresses the ops may touch
			for _, op := range tk.GoldEdit {
				for _, a := range addresses(op) {
					allowed[a] = true
				}
			}
			changed := diffAddresses(src, exp)
			if len(changed) == 0 {
				t.Fatal("the expected document equals the source")
			}
			for _, a := range changed {
				if !allowed[a] {
					t.Errorf("changed %s, which no operation names (ops: %v)", a, keys(allowed))
				}
			}
			for a := range allowed {
				if !contains(changed, a) {
					t.Errorf("operation names %s but it did not change", a)
				}
			}
		})
	}
	if n != 40 {
		t.Errorf("%d class B/C tasks, want 40", n)
	}
}

// addresses lists what an operation changes, in the terms diffAddresses uses.
func addresses(op *edit.Op) []string {
	switch op.Name {
	case edit.SetText, edit.AddMark, edit.RemoveMark, edit.SetLinkPredicate:
		a := []string{"span " + op.Block + "." + op.Span}
		if op.Name == edit.SetLinkPredicate || op.Mark != nil && op.Mark.Link != nil {
			a = append(a, "edges")
		}
		return a
	case edit.SetCodeText, edit.RemoveBlock:
		return []string{"block " + op.Block}
	case edit.InsertBlock:
		// The inserted block, everything nested in it, and the edges of
		// its typed links.
		var a []string
		var walk func(b *bend.Block)
		walk = func(b *bend.Block) {
			a = append(a, "block "+b.ID)
			for _, s := range b.Spans {
				a = append(a, "span "+b.ID+"."+s.ID)
				for _, m := range s.Marks {
					if m.Link != nil && m.Link.Predicate != nil && !contains(a, "edges") {
						a = append(a, "edges")
					}
				}
			}
			for _, c := range b.Children() {
				walk(c)
			}
		}
		walk(op.NewBlock)
		return a
	case edit.InsertSpan:
		return []string{"span " + op.Block + "." + op.NewSpan.ID}
	case edit.RemoveSpan:
		return []string{"span " + op.Block + "." + op.Span}
	case edit.SupersedeSpan:
		return []string{"span " + op.Block + "." + op.Span, "span " + op.Block + "." + op.NewSpan.ID, "edges"}
	case edit.AddEdge, edit.RemoveEdge:
		return []string{"edges"}
	case edit.SetVocabulary:
		return []string{"vocabulary"}
	case edit.SetTitle:
		return []string{"title"}
	}
	return nil
}

// diffAddresses lists what differs between two documents: spans (text or
// marks), blocks (added, removed, or changed outside their spans), the
// normalized edge set, vocabulary and title.
func diffAddresses(a, b *bend.Document) []string {
	var out []string
	spans := func(d *bend.Document) map[string]string {
		m := map[string]string{}
		d.Walk(func(bl *bend.Block, depth int, _ string) bool {
			for _, s := range bl.Spans {
				m["span "+bl.ID+"."+s.ID] = string(bend.MarshalValue(s.Value()))
			}
			shell := *bl
			shell.Spans, shell.Items, shell.Blocks = nil, nil, nil
			m["block "+bl.ID] = string(bend.MarshalValue(shell.Value()))
			return true
		})
		return m
	}
	sa, sb := spans(a), spans(b)
	for k, v := range sa {
		if sb[k] != v {
			out = append(out, k)
		}
	}
	for k := range sb {
		if _, ok := sa[k]; !ok {
			out = append(out, k)
		}
	}
	ia, _ := bend.IdentityForm(a)
	ib, _ := bend.IdentityForm(b)
	if string(bend.MarshalValue(ia.Get("edges"))) != string(bend.MarshalValue(ib.Get("edges"))) {
		out = append(out, "edges")
	}
	if a.Vocabulary != b.Vocabulary {
		out = append(out, "vocabulary")
	}
	if (a.Title == nil) != (b.Title == nil) || a.Title != nil && *a.Title != *b.Title {
		out = append(out, "title")
	}
	return out
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestPromptsShareAPrefix: the three tasks of a document render to the same
// system message and the same document prefix (so providers can cache it),
// and {{doc}} is expanded to the document's id.
func TestPromptsShareAPrefix(t *testing.T) {
	s := loadEmbedded(t)
	p, err := LoadPrompts(instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	a, b := p.render(s.Task("04-a")), p.render(s.Task("04-c"))
	if a[0] != b[0] {
		t.Error("system messages differ")
	}
	doc := string(s.Task("04-a").Source.Bytes)
	doc = strings.TrimRight(doc, "\n")
	if !strings.Contains(a[1].Content, doc) || !strings.HasPrefix(b[1].Content, a[1].Content[:strings.Index(a[1].Content, doc)+len(doc)]) {
		t.Error("user messages do not share the document prefix")
	}
	if strings.Contains(b[1].Content, "{{") {
		t.Errorf("unexpanded placeholder in %q", b[1].Content)
	}
	if len(p.Hash) != 64 {
		t.Errorf("prompt hash %q", p.Hash)
	}
}
