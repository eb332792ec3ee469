package progress

import (
	"io"
	"os"

	"bendscript.com/round-trip-harness/runner"
)

// Modes are the progress outputs For knows.
var Modes = []string{"auto", "bars", "lines", "none"}

// For is the progress output of a mode: none (nil), bars, lines,
// or auto: bars on a terminal outside CI, lines elsewhere (a log keeps
// lines readable where redrawn bars would be noise).
//
// A w that makes text safe for a terminal (safetext.Writer) is passed over
// by the bars, which write their own escape sequences and make each string
// they draw safe themselves.
func For(mode string, w io.Writer) runner.Progress {
	raw := w
	if r, ok := w.(interface{ Raw() io.Writer }); ok {
		raw = r.Raw()
	}
	switch mode {
	case "none":
		return nil
	case "bars":
		return &Bars{W: raw}
	case "lines":
		return &Lines{W: w}
	}
	if f, ok := raw.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("CI") == "" {
			return &Bars{W: raw}
		}
	}
	return &Lines{W: w}
}
