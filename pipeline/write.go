package pipeline

import (
	"fmt"
	"io"
	"path/filepath"

	"bendscript.com/round-trip-harness/internal/atomicfile"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/viewer"
)

// writeAll writes dir/<run-id>.json, .md, .html, .csv (render.WriteCSV) and
// .junit.xml (the report as CI test results), each atomically (a reader
// never sees half a report), and returns their paths in that order.
func writeAll(dir string, r *report.Report, in viewer.Input) ([]string, error) {
	if r.RunID == "" {
		return nil, fmt.Errorf("writing report: the report has no run id")
	}
	writers := []struct {
		ext   string
		write func(io.Writer) error
	}{
		{".json", func(w io.Writer) error { return report.WriteJSON(w, r) }},
		{".md", func(w io.Writer) error { return render.WriteMarkdown(w, r) }},
		{".html", func(w io.Writer) error { return viewer.WriteHTML(w, r, in) }},
		{".csv", func(w io.Writer) error { return render.WriteCSV(w, r) }},
		{".junit.xml", func(w io.Writer) error { return render.WriteJUnit(w, r) }},
	}
	var paths []string
	for _, wr := range writers {
		path := filepath.Join(dir, r.RunID+wr.ext)
		// A report write killed midway left its temporary file: the
		// run's lock makes this process the report's one writer.
		if err := atomicfile.RemoveOrphans(dir, filepath.Base(path)); err != nil {
			return paths, fmt.Errorf("writing report %s: %w", path, err)
		}
		if err := atomicfile.Write(path, wr.write); err != nil {
			return paths, fmt.Errorf("writing report %s: %w", path, err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}
