package task

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/edit"
)

// FromFile loads the task in a task file of any kind, with the document it
// edits, for score and expect:
//   - DIR/NN-x.json, a gating task (DIR is read as the task directory);
//   - DIR/natural/NN-x.json and DIR/inverse/NN-x.json, a natural or an
//     inverse task of the gating task DIR/NN-x.json;
//   - DIR/<rung>.tasks.json, a size-ladder rung's tasks (harness corpus
//     ladder), the one named by id (which may be empty when there is one),
//     whose document is DIR/<rung>.bend.json;
//   - a .bend.json document, whose produce task (Produced) id names: "p"
//     or "r", or in full ("17-r").
//
// Problems of other task files in the directory do not matter: an error
// names only the file given (and, for a derived task, its forward task's
// file). A file that does not exist is a usage error, never the embedded
// task of the same name.
func FromFile(file, corpusDir, id string) (*Task, error) {
	// A missing file and a directory (the repository's ladder/ was the Go
	// package, not a built ladder; it is suites/ladder/ now) are told
	// apart: both read "not a task file" (issue 34).
	switch st, err := os.Stat(file); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("--task %s: no such file", file)
	case err != nil:
		return nil, fmt.Errorf("--task %w", err)
	case st.IsDir():
		return nil, fmt.Errorf("--task %s: a directory, not a task file", file)
	}
	if strings.HasSuffix(file, ".tasks.json") {
		// A rung's document is beside its tasks, not in --corpus; a
		// --corpus that does not exist is still refused, as everywhere
		// (issue 34: it was ignored).
		if _, _, err := dirFS(corpusDir, DefaultCorpusDir, corpus.FS); err != nil {
			return nil, fmt.Errorf("--corpus %w", err)
		}
		return ladderTask(file, id)
	}
	if strings.HasSuffix(file, ".bend.json") {
		return producedFromFile(file, id)
	}
	dir, name := filepath.Split(file)
	dir = filepath.Clean(dir)
	kind := filepath.Base(dir)
	taskDir, rel := dir, name
	if kind == NaturalDir || kind == InverseDir {
		taskDir, rel = filepath.Dir(dir), path.Join(kind, name)
	} else {
		kind = ""
	}
	cfs, _, err := dirFS(corpusDir, DefaultCorpusDir, corpus.FS)
	if err != nil {
		return nil, err
	}
	set, probs := Load(cfs, os.DirFS(taskDir))
	mine := []string{path.Join("instructions", rel), path.Join("instructions", name)}
	var lines []string
	for _, p := range probs {
		if p.File == mine[0] || kind != "" && p.File == mine[1] || strings.HasPrefix(p.File, "corpus/") {
			lines = append(lines, p.String())
		}
	}
	if len(lines) > 0 {
		return nil, fmt.Errorf("the task or its corpus has problems:\n%s", strings.Join(lines, "\n"))
	}
	want := strings.TrimSuffix(name, ".json")
	pool := set.Tasks
	switch kind {
	case NaturalDir:
		pool = set.Natural
	case InverseDir:
		pool = set.Inverse
	}
	for _, t := range pool {
		if t.ID == want || t.Forward != nil && t.Forward.ID == want {
			return t, nil
		}
	}
	return nil, fmt.Errorf("no task %q in %s (task files are named NN-a.json, NN-b.json, NN-c.json)", want, file)
}

// ladderTask reads the task id of a size-ladder tasks file: its rung
// document, beside it, with the gold edit applied.
func ladderTask(file, id string) (*Task, error) {
	data, err := bend.ReadFile(file, nil)
	if err != nil {
		return nil, err
	}
	v, err := bend.ParseValue(data)
	if err != nil || v.Kind != bend.Array {
		return nil, fmt.Errorf("%s: not a size-ladder tasks file (a JSON array of tasks)", file)
	}
	var ids []string
	for i, e := range v.Elems {
		tid := e.Get("id")
		if tid == nil || tid.Kind != bend.String {
			return nil, fmt.Errorf("%s: /%d/id: missing or not a string", file, i)
		}
		ids = append(ids, tid.Str)
		if tid.Str == id || id == "" && len(v.Elems) == 1 {
			return ladderEntry(file, i, e)
		}
	}
	return nil, fmt.Errorf("%s holds tasks %s: name one with --id", file, strings.Join(ids, ", "))
}

func ladderEntry(file string, i int, e *bend.Value) (*Task, error) {
	fail := func(format string, args ...any) (*Task, error) {
		return nil, fmt.Errorf("%s: /%d/%s", file, i, fmt.Sprintf(format, args...))
	}
	str := func(k string) string {
		if f := e.Get(k); f != nil && f.Kind == bend.String {
			return f.Str
		}
		return ""
	}
	docName, class := str("document"), str("class")
	if docName == "" || filepath.Base(docName) != docName {
		return fail("document: missing, or not a file name beside the tasks file")
	}
	raw, err := bend.ReadFile(filepath.Join(filepath.Dir(file), docName), nil)
	if err != nil {
		return nil, err
	}
	doc, err := bend.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", docName, err)
	}
	g := e.Get("gold_edit")
	if g == nil {
		return fail("gold_edit: missing")
	}
	ops, err := edit.Parse(bend.MarshalValue(g))
	if err != nil {
		return fail("gold_edit: %v", err)
	}
	exp, err := edit.Apply(doc, ops)
	if err != nil {
		return fail("gold_edit: does not apply to %s: %v", docName, err)
	}
	src := NewDocument(docName, raw, doc)
	return &Task{ID: str("id"), Class: class, DocumentName: docName, Instruction: str("instruction"),
		GoldEdit: ops, Source: src, Expected: exp}, nil
}
