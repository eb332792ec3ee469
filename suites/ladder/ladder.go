package ladder

import (
	"fmt"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/task"
)

// DefaultTasks are the corpus tasks placed in every rung: the class B and
// class C edits of document 02, a bold mark and a span supersession (package
// doc, "Edits").
var DefaultTasks = []string{"02-b", "02-c"}

// The positions of an edit in a rung, in document order.
const (
	Start  = "start"
	Middle = "middle"
	End    = "end"
)

// Positions lists the positions in document order.
var Positions = []string{Start, Middle, End}

// Config says what to build. The zero Config builds DefaultRungs with
// DefaultTasks.
type Config struct {
	Rungs []int    // the rungs' target sizes in bytes, in this order
	Tasks []string // ids of the corpus class B/C tasks to place, in this order
}

// Rung is one composed document with the edits placed in it.
type Rung struct {
	Name   string         // the target as ParseRungs reads it, e.g. "8k"
	Target int            // target size in bytes
	Doc    *bend.Document // the composed document; its declared id is its computed id
	Bytes  []byte         // bend.Marshal(Doc): the file as written
	Copies []Copy         // the corpus documents composed, in document order
	Tasks  []*Task        // the placed edits: by position, then in Config.Tasks order
}

// Copy is one corpus document's blocks as they appear in a rung.
type Copy struct {
	Name     string // "d02r1": corpus number 02, repetition 1; every id of the copy starts with Name + "-"
	Document string // the corpus file name
	First    int    // index in Rung.Doc.Blocks of the copy's first top-level block
	Blocks   int    // number of top-level blocks of the copy
}

// Task is one corpus edit placed on one copy of its document.
type Task struct {
	ID          string     // <rung>-<position>-<corpus task>, e.g. 8k-start-02-b
	Position    string     // Start, Middle or End
	Source      *task.Task // the corpus task
	Copy        string     // name of the copy the edit lands on
	Instruction string     // the corpus instruction with the copy's ids; {{doc}} unexpanded
	GoldEdit    []*edit.Op // the corpus gold edit with the copy's ids
	Block       string     // the block the first operation addresses (or inserts after)
	BlockIndex  int        // its index among all the rung's blocks, in pre-order (Document.Walk)
	Expected    *bend.Document
}

// File returns the file name of the rung's document, e.g. "8k.bend.json".
func (r *Rung) File() string { return r.Name + ".bend.json" }

// TasksFile returns the file name of the rung's tasks, e.g. "8k.tasks.json".
func (r *Rung) TasksFile() string { return r.Name + ".tasks.json" }

// CountBlocks returns the number of blocks of d at every depth.
func CountBlocks(d *bend.Document) int {
	n := 0
	d.Walk(func(*bend.Block, int, string) bool { n++; return true })
	return n
}

// Build composes one rung per size of c from the documents of set and places
// the tasks of c in each (package doc). The same set and Config give the same
// bytes. It fails when a task cannot be placed, or a size cannot be met
// within Tolerance with whole documents.
func Build(set *task.Set, c Config) ([]*Rung, error) {
	sizes, ids := c.Rungs, c.Tasks
	if len(sizes) == 0 {
		sizes = DefaultRungs
	}
	if len(ids) == 0 {
		ids = DefaultTasks
	}
	p, err := newPlan(set, ids)
	if err != nil {
		return nil, err
	}
	rungs := make([]*Rung, len(sizes))
	for i, size := range sizes {
		r, err := p.rung(size)
		if err != nil {
			return nil, fmt.Errorf("rung %s: %w", RungName(size), err)
		}
		rungs[i] = r
	}
	return rungs, nil
}
