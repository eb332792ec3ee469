package ladder

import (
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/task"
)

// Transplant returns corpus task t (a class B/C task on a corpus document,
// or on a document made from one, such as the backward side of a pool
// pair) with the ids of copy copyName of a rung: its instruction and its
// gold edit renamed as place renames the gating tasks it places. An edit
// with no place in a rung (placeable) is an error.
func Transplant(t *task.Task, copyName string) (instruction string, ops []*edit.Op, err error) {
	if err := placeable(t); err != nil {
		return "", nil, err
	}
	rn := renamer{prefix: copyName + "-", src: t.Source.Doc.ID}
	if ops, err = renameOps(t.GoldEdit, rn); err != nil {
		return "", nil, err
	}
	return rewriteInstruction(t.Instruction, rn, idsOf(t)), ops, nil
}
