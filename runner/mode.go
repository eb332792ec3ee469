package runner

import (
	"io"
	"os"
)

// ProgressModes are the progress outputs ProgressFor knows.
var ProgressModes = []string{"auto", "bars", "lines", "none"}

// ProgressFor is the progress output of a mode: none (nil), bars, lines,
// or auto: bars on a terminal outside CI, lines elsewhere (a log keeps
// lines readable where redrawn bars would be noise).
func ProgressFor(mode string, w io.Writer) Progress {
	switch mode {
	case "none":
		return nil
	case "bars":
		return &Bars{W: w}
	case "lines":
		return &Lines{W: w}
	}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("CI") == "" {
			return &Bars{W: w}
		}
	}
	return &Lines{W: w}
}
