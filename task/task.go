// Package task reads the corpus documents and the 60 tasks (§8.2, §8.3),
// applies gold edits to give each class B/C task its expected document,
// renders prompts, and checks the whole set (harness corpus check).
package task

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
)

// The task classes of §8.3.
const (
	ClassA = "A" // read-only comprehension
	ClassB = "B" // local edit
	ClassC = "C" // semantic edit
)

// Document is one corpus document.
type Document struct {
	Name  string // file name in the corpus, e.g. 01-birdwatching-field-notes.bend.json
	Bytes []byte // the file as stored; this is what the model sees
	Doc   *bend.Document
	Hash  string // sha256 of Bytes, hex
}

// Task is one task: immutable input to a model call and to scoring.
type Task struct {
	ID              string   // NN-x
	Class           string   // A, B or C
	DocumentName    string   // corpus file name
	Covers          []string // what the task exercises
	Instruction     string   // as written, with {{doc}} unexpanded
	ReferenceAnswer string   // class A
	Evidence        []string // class A: references that hold the answer
	GoldEdit        []*edit.Op
	Quotes          []string          // natural tasks: the phrases that name targets by content
	Names           map[string]string // natural tasks: edit.DefaultNames, the ids Expected gives new content
	Hash            string            // sha256 of the task file, hex

	Source   *Document
	Expected *bend.Document // class B/C: Source with GoldEdit applied (natural tasks: with Names for the placeholders)
	Forward  *Task          // inverse tasks (LoadInverse): the task undone; natural tasks (LoadNatural): the task reworded; nil for the others
	Step     int            // relay tasks (package relay): the 1-based step of the chain; 0 for the others

	// Where the task stands in its suite, as fields, so that scoring and
	// the report never parse an id: Suite is the suite that made it
	// (package suites; "" for a task read outside a run); Chain names a
	// relay step's chain (its document's number); Rung and Position place
	// a size-ladder task ("128k", "middle").
	Suite, Chain, Rung, Position string
}

// Text returns the instruction as the model sees it: {{doc}} replaced by the
// source document's declared id.
func (t *Task) Text() string {
	return strings.ReplaceAll(t.Instruction, "{{doc}}", t.Source.Doc.ID)
}

// Set is the corpus and its tasks.
type Set struct {
	Documents []*Document // sorted by name
	Tasks     []*Task     // sorted by id
	Inverse   []*Task     // the inverse of each class B/C task (LoadInverse), sorted by id
	Natural   []*Task     // each class B/C task as an editor would ask for it (LoadNatural), sorted by id
}

// Task returns the task with the given id, or nil.
func (s *Set) Task(id string) *Task {
	i := sort.Search(len(s.Tasks), func(i int) bool { return s.Tasks[i].ID >= id })
	if i < len(s.Tasks) && s.Tasks[i].ID == id {
		return s.Tasks[i]
	}
	return nil
}

// Hash returns one hash over every document and task file, for reports.
func (s *Set) Hash() string {
	h := sha256.New()
	for _, d := range s.Documents {
		fmt.Fprintf(h, "%s %s\n", d.Name, d.Hash)
	}
	for _, t := range s.Tasks {
		fmt.Fprintf(h, "%s %s\n", t.ID, t.Hash)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Problem is one thing wrong with the corpus or the tasks.
type Problem struct {
	File string
	Msg  string
}

func (p Problem) String() string { return p.File + ": " + p.Msg }

// Load reads every *.bend.json of corpusFS, every NN-x.json of taskFS and,
// with LoadInverse and LoadNatural, every inverse/NN-x.json and
// natural/NN-x.json.
// It returns the set together with every problem found; a task or document
// with a problem that prevents its use is left out of the set, so callers
// that need a complete set must treat any problem as fatal.
func Load(corpusFS, taskFS fs.FS) (*Set, []Problem) {
	s := &Set{}
	var probs []Problem
	names, _ := fs.Glob(corpusFS, "*.bend.json")
	docs := map[string]*Document{}
	for _, name := range names {
		d, ps := loadDocument(corpusFS, name)
		probs = append(probs, ps...)
		if d != nil {
			docs[name] = d
			s.Documents = append(s.Documents, d)
		}
	}
	tnames, _ := fs.Glob(taskFS, "??-?.json")
	for _, name := range tnames {
		t, ps := loadTask(taskFS, name, docs, false)
		probs = append(probs, ps...)
		if t != nil {
			s.Tasks = append(s.Tasks, t)
		}
	}
	sort.Slice(s.Tasks, func(i, j int) bool { return s.Tasks[i].ID < s.Tasks[j].ID })
	inv, ps := LoadInverse(s, taskFS)
	s.Inverse = inv
	probs = append(probs, ps...)
	nat, ps := LoadNatural(s, taskFS)
	s.Natural = nat
	return s, append(probs, ps...)
}

// NewDocument is a document of the given name, its bytes and its parsed
// form, hashed: the one place a task document is built, so that every
// suite hashes its sources alike.
func NewDocument(name string, data []byte, doc *bend.Document) *Document {
	return &Document{Name: name, Bytes: data, Doc: doc, Hash: hashOf(data)}
}

// Marshalled is the document d written as bend.Marshal writes it, hashed.
func Marshalled(name string, d *bend.Document) *Document {
	return NewDocument(name, bend.Marshal(d), d)
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func loadDocument(fsys fs.FS, name string) (*Document, []Problem) {
	file := path.Join("corpus", name)
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, []Problem{{file, err.Error()}}
	}
	d, err := bend.Parse(data)
	if err != nil {
		return nil, []Problem{{file, err.Error()}}
	}
	var probs []Problem
	for _, e := range bend.Validate(d) {
		probs = append(probs, Problem{file, e.Error()})
	}
	id, err := bend.ID(d)
	switch {
	case err != nil:
		probs = append(probs, Problem{file, err.Error()})
	case id != d.ID:
		probs = append(probs, Problem{file, fmt.Sprintf("/id: declared %q, computed %q (§5.1; run harness id --write)", d.ID, id)})
	}
	return &Document{Name: name, Bytes: data, Doc: d, Hash: hashOf(data)}, probs
}

// loadTask reads one task file. A natural task (natural is true) may have
// quotes and must be class B or C; its gold edit names new content by
// placeholders, which take their default names (edit.DefaultNames) before
// the edit is applied and checked.
func loadTask(fsys fs.FS, name string, docs map[string]*Document, natural bool) (*Task, []Problem) {
	file := path.Join("instructions", name)
	bad := func(format string, args ...any) (*Task, []Problem) {
		return nil, []Problem{{file, fmt.Sprintf(format, args...)}}
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return bad("%v", err)
	}
	v, err := bend.ParseValue(data)
	if err != nil {
		return bad("%v", err)
	}
	if v.Kind != bend.Object {
		return bad("a task is a JSON object")
	}
	t := &Task{Hash: hashOf(data)}
	var probs []Problem
	str := func(key string, dst *string, required bool) {
		f := v.Get(key)
		switch {
		case f == nil && required:
			probs = append(probs, Problem{file, fmt.Sprintf("/%s: missing", key)})
		case f != nil && f.Kind != bend.String:
			probs = append(probs, Problem{file, fmt.Sprintf("/%s: must be a string", key)})
		case f != nil:
			*dst = f.Str
		}
	}
	strs := func(key string, dst *[]string) {
		f := v.Get(key)
		if f == nil {
			return
		}
		if f.Kind != bend.Array {
			probs = append(probs, Problem{file, fmt.Sprintf("/%s: must be an array of strings", key)})
			return
		}
		for i, e := range f.Elems {
			if e.Kind != bend.String {
				probs = append(probs, Problem{file, fmt.Sprintf("/%s/%d: must be a string", key, i)})
				continue
			}
			*dst = append(*dst, e.Str)
		}
	}
	str("id", &t.ID, true)
	str("class", &t.Class, true)
	str("document", &t.DocumentName, true)
	str("instruction", &t.Instruction, true)
	str("reference_answer", &t.ReferenceAnswer, false)
	strs("covers", &t.Covers)
	strs("evidence", &t.Evidence)
	known := map[string]bool{"id": true, "class": true, "document": true, "instruction": true, "reference_answer": true, "covers": true, "evidence": true, "gold_edit": true}
	if natural {
		strs("quotes", &t.Quotes)
		known["quotes"] = true
		if v.Get("quotes") == nil {
			probs = append(probs, Problem{file, "/quotes: missing (an empty array when no target is named by content)"})
		}
	}
	for _, m := range v.Members {
		if !known[m.Key] {
			probs = append(probs, Problem{file, fmt.Sprintf("/%s: unknown member", m.Key)})
		}
	}
	if want := strings.TrimSuffix(path.Base(name), ".json"); t.ID != want {
		probs = append(probs, Problem{file, fmt.Sprintf("/id: %q does not match the file name", t.ID)})
	}
	if want := strings.ToUpper(t.ID[len(t.ID)-1:]); t.ID != "" && t.Class != want {
		probs = append(probs, Problem{file, fmt.Sprintf("/class: %q, but the file name says class %s", t.Class, want)})
	}
	if len(probs) > 0 {
		return nil, probs
	}
	src := docs[t.DocumentName]
	if src == nil {
		return bad("/document: no corpus document %q", t.DocumentName)
	}
	if !strings.HasPrefix(t.DocumentName, t.ID[:2]+"-") {
		probs = append(probs, Problem{file, fmt.Sprintf("/document: %q is not corpus document %s", t.DocumentName, t.ID[:2])})
	}
	t.Source = src
	switch t.Class {
	case ClassA:
		if natural {
			return bad("/class: natural tasks are class B or C")
		}
		if v.Get("gold_edit") != nil {
			probs = append(probs, Problem{file, "/gold_edit: class A tasks do not edit"})
		}
		if t.ReferenceAnswer == "" {
			probs = append(probs, Problem{file, "/reference_answer: missing"})
		}
		if len(t.Evidence) == 0 {
			probs = append(probs, Problem{file, "/evidence: missing"})
		}
		for i, ev := range t.Evidence {
			if !src.Doc.Resolves(ev) {
				probs = append(probs, Problem{file, fmt.Sprintf("/evidence/%d: %q is not a block or span of %s", i, ev, t.DocumentName)})
			}
		}
	case ClassB, ClassC:
		ge := v.Get("gold_edit")
		if ge == nil {
			return bad("/gold_edit: missing")
		}
		ops, err := edit.FromValue(ge)
		if err != nil {
			return bad("/gold_edit: %v", err)
		}
		if len(ops) == 0 {
			return bad("/gold_edit: empty")
		}
		t.GoldEdit = ops
		if natural {
			if t.Names, err = edit.DefaultNames(src.Doc, ops); err == nil {
				ops, err = edit.Bind(ops, t.Names)
			}
			if err != nil {
				return bad("/gold_edit: placeholders: %v", err)
			}
		}
		exp, err := edit.Apply(src.Doc, ops)
		if err != nil {
			return bad("/gold_edit: does not apply to %s: %v", t.DocumentName, err)
		}
		for _, e := range bend.Validate(exp) {
			probs = append(probs, Problem{file, "expected document invalid: " + e.Error()})
		}
		for i, r := range edit.Check(exp, src.Doc.ID, ops) {
			if !r.OK {
				probs = append(probs, Problem{file, fmt.Sprintf("/gold_edit/%d: the expected document fails its own check: %s", i, r.Reason)})
			}
		}
		t.Expected = exp
	default:
		return bad("/class: %q is not A, B or C", t.Class)
	}
	return t, probs
}
