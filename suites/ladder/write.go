package ladder

import (
	"fmt"
	"io"
	"path/filepath"

	"bendscript.com/round-trip-harness/internal/atomicfile"
)

// Write writes each rung into dir as harness corpus ladder does: its
// document, <rung>.bend.json, and its tasks, <rung>.tasks.json (TasksJSON),
// each atomically; and prints one line per rung to w: name, bytes, blocks,
// tasks and the document's id.
func Write(dir string, rungs []*Rung, w io.Writer) error {
	for _, r := range rungs {
		tasksJSON, err := TasksJSON(r)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, r.File()), r.Bytes); err != nil {
			return err
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, r.TasksFile()), tasksJSON); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\t%d bytes\t%d blocks\t%d tasks\t%s\n", r.Name, len(r.Bytes), CountBlocks(r.Doc), len(r.Tasks), r.Doc.ID)
	}
	return nil
}
