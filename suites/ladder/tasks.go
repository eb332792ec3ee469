package ladder

import (
	"strconv"

	"bendscript.com/round-trip-harness/bend"
)

// TasksJSON returns the tasks of r as a JSON array, one object per task in
// the form of instructions/FORMAT.md (id, document, class, covers,
// instruction, gold_edit) with what a runner job needs to know beyond it:
//
//	{
//	  "id": "8k-start-02-b",            // <rung>-<position>-<corpus task>
//	  "document": "8k.bend.json",       // the rung's file, in the same directory
//	  "class": "B",
//	  "position": "start",              // start, middle or end
//	  "source_task": "02-b",            // the corpus task placed
//	  "copy": "d02r0",                  // the copy it lands on; its ids start with "d02r0-"
//	  "covers": [...],                  // the corpus task's
//	  "instruction": "...",             // the corpus instruction with the copy's ids; {{doc}} as in FORMAT.md
//	  "gold_edit": [...],               // the corpus gold edit with the copy's ids
//	  "landing": {"block": "d02r0-blk-4a90", "index": 1, "blocks": 27},
//	                                    // the block addressed, its pre-order index and the rung's block count
//	  "expected_id": "bagaaiera..."     // the computed id of the expected document
//	}
//
// The output ends with a newline.
func TasksJSON(r *Rung) ([]byte, error) {
	n := CountBlocks(r.Doc)
	arr := &bend.Value{Kind: bend.Array}
	for _, t := range r.Tasks {
		exp, err := bend.ID(t.Expected)
		if err != nil {
			return nil, err
		}
		covers := &bend.Value{Kind: bend.Array}
		for _, c := range t.Source.Covers {
			covers.Elems = append(covers.Elems, bend.StringValue(c))
		}
		ops := &bend.Value{Kind: bend.Array}
		for _, op := range t.GoldEdit {
			ops.Elems = append(ops.Elems, op.Value())
		}
		o := &bend.Value{Kind: bend.Object}
		add := func(k string, v *bend.Value) { o.Members = append(o.Members, bend.Member{Key: k, Value: v}) }
		add("id", bend.StringValue(t.ID))
		add("document", bend.StringValue(r.File()))
		add("class", bend.StringValue(t.Source.Class))
		add("position", bend.StringValue(t.Position))
		add("source_task", bend.StringValue(t.Source.ID))
		add("copy", bend.StringValue(t.Copy))
		add("covers", covers)
		add("instruction", bend.StringValue(t.Instruction))
		add("gold_edit", ops)
		add("landing", &bend.Value{Kind: bend.Object, Members: []bend.Member{
			{Key: "block", Value: bend.StringValue(t.Block)},
			{Key: "index", Value: number(t.BlockIndex)},
			{Key: "blocks", Value: number(n)},
		}})
		add("expected_id", bend.StringValue(exp))
		arr.Elems = append(arr.Elems, o)
	}
	return append(bend.MarshalValueIndent(arr), '\n'), nil
}

func number(n int) *bend.Value { return &bend.Value{Kind: bend.Number, Str: strconv.Itoa(n)} }
