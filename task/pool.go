package task

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/regularfile"
)

// PoolDir is the directory of the task directory that holds the pools of
// reversible edits, one file per corpus document (pool/NN.json,
// instructions/FORMAT.md).
const PoolDir = "pool"

// MinPairs is how many pairs each document's pool holds at least (issue 48:
// enough that a chain of round trips draws each forward edit rarely).
const MinPairs = 6

// Pair is one reversible edit of a pool: a forward task and a backward task
// of its own that takes the forward task's expected document back to the
// source byte for byte. Both are ordinary class B or C tasks (Task): the
// forward one edits the corpus document; the backward one's Source is the
// forward one's Expected document as bend.Marshal writes it, its Forward
// the forward task. Both have the pair's id, class and covers.
type Pair struct {
	ID       string // NN-pKK
	Kind     string // the forward edit's kind, a name of PairKinds
	Class    string // B or C (§8.3)
	Covers   []string
	Forward  *Task
	Backward *Task
}

// PairKinds are the kinds of forward edit a pair may be, with what each
// does; the backward edit is the opposite change (a split's backward edit
// merges). A pool file names one per pair.
var PairKinds = []struct{ Name, Says string }{
	{"text", "change a span's text"},
	{"heading", "rename a heading"},
	{"title", "change the document's title"},
	{"code", "change a code block's text"},
	{"mark", "add or remove a bold, italic or code mark"},
	{"link", "add or remove a link mark"},
	{"link-type", "retype or untype a link"},
	{"edge", "add or remove an edge, with meta"},
	{"span", "insert or remove a span"},
	{"block", "insert or remove a block"},
	{"supersede", "supersede a span (§5.3), or restore the superseded text"},
	{"split", "split a paragraph in two"},
	{"merge", "merge two paragraphs into one"},
	{"move", "move a block or section elsewhere"},
	{"reorder", "reorder a list's items"},
	{"list-kind", "make a list ordered or unordered"},
	{"nesting", "nest a list item under another, or lift it out"},
}

func knownKind(k string) bool {
	for _, pk := range PairKinds {
		if pk.Name == k {
			return true
		}
	}
	return false
}

// WithPool loads the pools of taskFS into s (LoadPool) and returns the
// problems found.
func WithPool(s *Set, taskFS fs.FS) []Problem {
	pairs, probs := LoadPool(s, taskFS)
	s.Pairs = pairs
	return probs
}

// PoolOf returns the pairs of the named corpus document, in id order.
func (s *Set) PoolOf(document string) []*Pair {
	var out []*Pair
	for _, p := range s.Pairs {
		if p.Forward.DocumentName == document {
			out = append(out, p)
		}
	}
	return out
}

// LoadPool reads every pool/NN.json of taskFS against the documents of s.
// A pair with a problem that prevents its use is left out; the problems
// name the file, the JSON pointer and the pair. Pairs are sorted by id.
func LoadPool(s *Set, taskFS fs.FS) ([]*Pair, []Problem) {
	docs := map[string]*Document{}
	for _, d := range s.Documents {
		docs[d.Name] = d
	}
	names, _ := fs.Glob(taskFS, PoolDir+"/??.json")
	var out []*Pair
	var probs []Problem
	for _, name := range names {
		pairs, ps := loadPoolFile(taskFS, name, docs)
		out = append(out, pairs...)
		probs = append(probs, ps...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, probs
}

func loadPoolFile(fsys fs.FS, name string, docs map[string]*Document) ([]*Pair, []Problem) {
	file := path.Join("instructions", name)
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{file, fmt.Sprintf(format, args...)})
	}
	data, err := regularfile.ReadFS(fsys, name, bend.MaxSize)
	if err != nil {
		add("%v", err)
		return nil, probs
	}
	v, err := bend.ParseValue(data)
	if err != nil {
		add("%v", err)
		return nil, probs
	}
	if v.Kind != bend.Object {
		add("a pool file is a JSON object")
		return nil, probs
	}
	nn := strings.TrimSuffix(path.Base(name), ".json")
	r := &memberReader{v: v, file: file}
	var docName string
	r.str("document", &docName, true)
	for _, m := range v.Members {
		if m.Key != "document" && m.Key != "pairs" {
			r.add("/%s: unknown member", m.Key)
		}
	}
	probs = append(probs, r.probs...)
	src := docs[docName]
	switch {
	case docName == "":
		return nil, probs
	case !strings.HasPrefix(docName, nn+"-"):
		add("/document: %q is not corpus document %s", docName, nn)
		return nil, probs
	case src == nil:
		add("/document: no corpus document %q", docName)
		return nil, probs
	}
	list := v.Get("pairs")
	if list == nil || list.Kind != bend.Array {
		add("/pairs: missing or not an array")
		return nil, probs
	}
	var out []*Pair
	for i, pv := range list.Elems {
		ptr := fmt.Sprintf("/pairs/%d", i)
		p, ps := loadPair(file, ptr, fmt.Sprintf("%s-p%02d", nn, i+1), pv, src)
		probs = append(probs, ps...)
		if p != nil {
			out = append(out, p)
		}
	}
	return out, probs
}

// loadPair reads the pair at pointer ptr of a pool file, whose id must be
// want (pairs are numbered in file order).
func loadPair(file, ptr, want string, v *bend.Value, src *Document) (*Pair, []Problem) {
	var probs []Problem
	add := func(format string, args ...any) {
		probs = append(probs, Problem{file, ptr + fmt.Sprintf(format, args...)})
	}
	if v.Kind != bend.Object {
		add(": a pair is a JSON object")
		return nil, probs
	}
	r := &memberReader{v: v, file: file}
	p := &Pair{}
	r.str("id", &p.ID, true)
	r.str("kind", &p.Kind, true)
	r.str("class", &p.Class, true)
	r.strs("covers", &p.Covers)
	known := map[string]bool{"id": true, "kind": true, "class": true, "covers": true, "forward": true, "backward": true}
	for _, m := range v.Members {
		if !known[m.Key] {
			r.add("/%s: unknown member", m.Key)
		}
	}
	for _, pr := range r.probs {
		add("%s", pr.Msg)
	}
	if len(probs) > 0 {
		return nil, probs
	}
	who := fmt.Sprintf(" (pair %s)", p.ID)
	switch {
	case p.ID != want:
		add("/id: %q, want %q (pairs are numbered NN-pKK in file order)", p.ID, want)
	case !knownKind(p.Kind):
		add("/kind: %q is not a kind of PairKinds%s", p.Kind, who)
	case p.Class != ClassB && p.Class != ClassC:
		add("/class: %q is not B or C%s", p.Class, who)
	}
	if len(probs) > 0 {
		return nil, probs
	}
	p.Forward = pairSide(p, "forward", v, src, nil, &probs, file, ptr)
	if p.Forward == nil {
		return nil, probs
	}
	p.Backward = pairSide(p, "backward", v, Marshalled(src.Name, p.Forward.Expected.Clone()), p.Forward, &probs, file, ptr)
	if p.Backward == nil {
		return nil, probs
	}
	return p, probs
}

// pairSide reads the forward or backward side of a pair, a task on source:
// an object with "instruction" and "gold_edit", whose gold edit must apply,
// give a valid document and pass its own check (as a gating task's must).
func pairSide(p *Pair, side string, pv *bend.Value, source *Document, fwd *Task, probs *[]Problem, file, ptr string) *Task {
	ptr += "/" + side
	add := func(sub, format string, args ...any) {
		*probs = append(*probs, Problem{file, fmt.Sprintf("%s%s: pair %s %s: %s", ptr, sub, p.ID, side, fmt.Sprintf(format, args...))})
	}
	v := pv.Get(side)
	if v == nil || v.Kind != bend.Object {
		add("", "missing or not an object")
		return nil
	}
	t := &Task{ID: p.ID, Class: p.Class, DocumentName: source.Name, Covers: p.Covers, Source: source, Forward: fwd,
		Hash: hashOf(bend.MarshalValue(v))}
	r := &memberReader{v: v, file: file}
	r.str("instruction", &t.Instruction, true)
	for _, m := range v.Members {
		if m.Key != "instruction" && m.Key != "gold_edit" {
			r.add("/%s: unknown member", m.Key)
		}
	}
	if len(r.probs) == 0 {
		if msg := r.expected(t, false); msg != "" {
			r.add("%s", msg)
		}
	}
	if len(r.probs) > 0 {
		for _, pr := range r.probs {
			sub, msg := "", pr.Msg
			if strings.HasPrefix(msg, "/") {
				sub, msg, _ = strings.Cut(msg, ": ")
			}
			add(sub, "%s", msg)
		}
		return nil
	}
	return t
}

// CheckPool returns what is wrong with the pools beyond what LoadPool
// reports: a document with fewer than MinPairs usable pairs, a forward
// edit that leaves its document as it was, and a backward edit that does
// not give the source back byte for byte (bend.Marshal, the canonical
// serialization the model is shown) and so the same id.
func CheckPool(s *Set) []Problem {
	var probs []Problem
	idx := map[string]int{} // pair id → its index in its file
	for _, d := range s.Documents {
		nn := d.Name[:2]
		file := path.Join("instructions", PoolDir, nn+".json")
		pairs := s.PoolOf(d.Name)
		if len(pairs) < MinPairs {
			probs = append(probs, Problem{file, fmt.Sprintf("/pairs: %d usable pairs for %s, want at least %d", len(pairs), d.Name, MinPairs)})
		}
		for _, p := range pairs {
			var k int
			fmt.Sscanf(p.ID[len(nn)+2:], "%d", &k)
			idx[p.ID] = k - 1
		}
	}
	for _, p := range s.Pairs {
		file := path.Join("instructions", PoolDir, p.ID[:2]+".json")
		ptr := fmt.Sprintf("/pairs/%d", idx[p.ID])
		add := func(side, format string, args ...any) {
			probs = append(probs, Problem{file, fmt.Sprintf("%s/%s/gold_edit: pair %s %s: %s", ptr, side, p.ID, side, fmt.Sprintf(format, args...))})
		}
		src := p.Forward.Source.Doc
		if bytes.Equal(bend.Marshal(p.Forward.Expected), bend.Marshal(src)) {
			add("forward", "leaves the document as it was")
		}
		if !bytes.Equal(bend.Marshal(p.Backward.Expected), bend.Marshal(src)) {
			add("backward", "forward then backward does not give the source back byte for byte")
			continue
		}
		if got, err := bend.ID(p.Backward.Expected); err != nil || got != src.ID {
			add("backward", "forward then backward gives id %s, want the source's %s", got, src.ID)
		}
	}
	return probs
}
