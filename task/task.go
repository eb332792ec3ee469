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
	"bendscript.com/round-trip-harness/internal/regularfile"
)

// The task classes of §8.3.
const (
	ClassA = "A" // read-only comprehension
	ClassB = "B" // local edit
	ClassC = "C" // semantic edit
	// The produce suite's classes (package suites): P gives the
	// document's text projection and asks for the .bend JSON; R gives the
	// .bend and asks for its projection.
	ClassP = "P" // produce
	ClassR = "R" // render
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
	// Delta asks scoring for the answer's deleted, corrupted and added
	// content against Expected (metric.DeltaOf): a delegate round trip's
	// end (package suites/delegate).
	Delta bool

	// Where the task stands in its suite, as fields, so that scoring and
	// the report never parse an id: Suite is the suite that made it
	// (package suites; "" for a task read outside a run); Chain names a
	// relay step's chain (its document's number); Rung and Position place
	// a size-ladder task ("128k", "middle").
	Suite, Chain, Rung, Position string

	// Format is the answer format a class B/C task asks for (package
	// formats); "" is the whole document, as §8 asks.
	Format string
	// Base is a format variant's (WithFormats) task id in the whole-document
	// format, which its prompt names: the variants of a task differ in
	// their answer instruction alone. "" for every other task.
	Base string
	// Lane tells apart the chains of one document that run side by side:
	// a relay step's answer format (InFormat sets it), so that step s of
	// the json-patch chain is followed by step s+1 of the same chain. ""
	// for a document's one chain, whatever its steps' formats (the
	// produce chain renders, then produces).
	Lane string
	// Show is how the model is shown a document it is given, when not as
	// its JSON: a class P task shows its projection. A relay step given
	// the model's own previous answer shows it through Show; nil shows
	// the JSON.
	Show func(*Document) (*Document, error)
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
	Pairs     []*Pair     // the pools of reversible edits (WithPool; nil after Load), sorted by id
	// PoolFS is the task directory Load read, where a suite that draws
	// from the pools loads them (LoadPool): Load leaves them unloaded.
	PoolFS fs.FS
	// Skipped says which documents a suite could not use, and why (a
	// relay chain that does not apply); the run prints it.
	Skipped []string
	// Order is the delegate suite's forward edits, one line per chain
	// ("01: 01-p03 01-p01 …", package suites/delegate), which the manifest
	// records; nil for the other suites.
	Order []string
}

// Task returns the task with the given id, or nil.
func (s *Set) Task(id string) *Task {
	i := sort.Search(len(s.Tasks), func(i int) bool { return s.Tasks[i].ID >= id })
	if i < len(s.Tasks) && s.Tasks[i].ID == id {
		return s.Tasks[i]
	}
	return nil
}

// Edits counts the tasks with a gold edit: the class B and C tasks, whose
// expected document the edit made.
func (s *Set) Edits() int {
	n := 0
	for _, t := range s.Tasks {
		if t.Expected != nil {
			n++
		}
	}
	return n
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
// natural/NN-x.json. The pools of reversible edits are not loaded here
// (WithPool): only corpus check and the suites that draw from them need
// them, and applying every pair would slow every command down.
// It returns the set together with every problem found; a task or document
// with a problem that prevents its use is left out of the set, so callers
// that need a complete set must treat any problem as fatal.
func Load(corpusFS, taskFS fs.FS) (*Set, []Problem) {
	s := &Set{PoolFS: taskFS}
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
	data, err := regularfile.ReadFS(fsys, name, bend.MaxSize)
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
	data, err := regularfile.ReadFS(fsys, name, bend.MaxSize)
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
	r := &memberReader{v: v, file: file}
	r.fields(t, natural)
	r.names(t, name)
	if len(r.probs) > 0 {
		return nil, r.probs
	}
	src := docs[t.DocumentName]
	if src == nil {
		return bad("/document: no corpus document %q", t.DocumentName)
	}
	if !strings.HasPrefix(t.DocumentName, t.ID[:2]+"-") {
		r.add("/document: %q is not corpus document %s", t.DocumentName, t.ID[:2])
	}
	t.Source = src
	switch {
	case t.Class == ClassA && natural:
		return bad("/class: natural tasks are class B or C")
	case t.Class == ClassA:
		r.classA(t)
	case t.Class == ClassB || t.Class == ClassC:
		if msg := r.expected(t, natural); msg != "" {
			return bad("%s", msg)
		}
	default:
		return bad("/class: %q is not A, B or C", t.Class)
	}
	return t, r.probs
}

// memberReader reads a task file's members into a Task, collecting a
// problem per member that is missing, of the wrong type or unknown.
type memberReader struct {
	v     *bend.Value
	file  string
	probs []Problem
}

func (r *memberReader) add(format string, args ...any) {
	r.probs = append(r.probs, Problem{r.file, fmt.Sprintf(format, args...)})
}

// str reads a string member.
func (r *memberReader) str(key string, dst *string, required bool) {
	f := r.v.Get(key)
	switch {
	case f == nil && required:
		r.add("/%s: missing", key)
	case f != nil && f.Kind != bend.String:
		r.add("/%s: must be a string", key)
	case f != nil:
		*dst = f.Str
	}
}

// strs reads an array of strings.
func (r *memberReader) strs(key string, dst *[]string) {
	f := r.v.Get(key)
	if f == nil {
		return
	}
	if f.Kind != bend.Array {
		r.add("/%s: must be an array of strings", key)
		return
	}
	for i, e := range f.Elems {
		if e.Kind != bend.String {
			r.add("/%s/%d: must be a string", key, i)
			continue
		}
		*dst = append(*dst, e.Str)
	}
}

// fields reads the members of FORMAT.md (and a natural task's quotes) and
// refuses any other.
func (r *memberReader) fields(t *Task, natural bool) {
	r.str("id", &t.ID, true)
	r.str("class", &t.Class, true)
	r.str("document", &t.DocumentName, true)
	r.str("instruction", &t.Instruction, true)
	r.str("reference_answer", &t.ReferenceAnswer, false)
	r.strs("covers", &t.Covers)
	r.strs("evidence", &t.Evidence)
	known := map[string]bool{"id": true, "class": true, "document": true, "instruction": true, "reference_answer": true, "covers": true, "evidence": true, "gold_edit": true}
	if natural {
		r.strs("quotes", &t.Quotes)
		known["quotes"] = true
		if r.v.Get("quotes") == nil {
			r.add("/quotes: missing (an empty array when no target is named by content)")
		}
	}
	for _, m := range r.v.Members {
		if !known[m.Key] {
			r.add("/%s: unknown member", m.Key)
		}
	}
}

// names checks the id and class against the file name NN-x.json.
func (r *memberReader) names(t *Task, name string) {
	if want := strings.TrimSuffix(path.Base(name), ".json"); t.ID != want {
		r.add("/id: %q does not match the file name", t.ID)
	}
	if want := strings.ToUpper(t.ID[len(t.ID)-1:]); t.ID != "" && t.Class != want {
		r.add("/class: %q, but the file name says class %s", t.Class, want)
	}
}

// classA checks a question: no gold edit, a reference answer, and evidence
// that names blocks or spans of its document.
func (r *memberReader) classA(t *Task) {
	if r.v.Get("gold_edit") != nil {
		r.add("/gold_edit: class A tasks do not edit")
	}
	if t.ReferenceAnswer == "" {
		r.add("/reference_answer: missing")
	}
	if len(t.Evidence) == 0 {
		r.add("/evidence: missing")
	}
	for i, ev := range t.Evidence {
		if !t.Source.Doc.Resolves(ev) {
			r.add("/evidence/%d: %q is not a block or span of %s", i, ev, t.DocumentName)
		}
	}
}

// expected reads a class B or C task's gold edit and applies it (a natural
// task's with its placeholders bound to edit.DefaultNames) to make the
// expected document, which must be valid and pass the edit's own check.
// It returns why the task cannot be used, or "".
func (r *memberReader) expected(t *Task, natural bool) string {
	ge := r.v.Get("gold_edit")
	if ge == nil {
		return "/gold_edit: missing"
	}
	ops, err := edit.FromValue(ge)
	if err != nil {
		return fmt.Sprintf("/gold_edit: %v", err)
	}
	if len(ops) == 0 {
		return "/gold_edit: empty"
	}
	t.GoldEdit = ops
	src := t.Source.Doc
	if natural {
		if t.Names, err = edit.DefaultNames(src, ops); err == nil {
			ops, err = edit.Bind(ops, t.Names)
		}
		if err != nil {
			return fmt.Sprintf("/gold_edit: placeholders: %v", err)
		}
	}
	exp, err := edit.Apply(src, ops)
	if err != nil {
		return fmt.Sprintf("/gold_edit: does not apply to %s: %v", t.DocumentName, err)
	}
	for _, e := range bend.Validate(exp) {
		r.add("expected document invalid: %s", e.Error())
	}
	for i, res := range edit.Check(exp, src.ID, ops) {
		if !res.OK {
			r.add("/gold_edit/%d: the expected document fails its own check: %s", i, res.Reason)
		}
	}
	t.Expected = exp
	return ""
}
