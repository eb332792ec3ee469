// Package safetext makes strings from outside (a model's answer, a
// server's provider name or error message, a judge's reason, a manifest's
// model names) safe to print on a terminal or in a CI log, and safe in a
// CSV cell, and bounds their length.
//
// A terminal obeys the control characters in what it prints: an escape
// sequence can clear the screen, set the window title or write the
// clipboard (OSC 52), and a CI log reads a line that starts with "::" as
// a GitHub Actions command (issue 32). So every C0 and C1 control
// character but the line break and the tab, DEL, the bidirectional
// overrides and marks, the invisible characters (zero-width space, soft
// hyphen, byte order mark, line and paragraph separators, tag
// characters) and every byte that is not UTF-8 is written as a visible
// escape (\u001b, \xff), and a line that starts with "::" has its first
// colon escaped (\u003a:). Text that holds none of these is unchanged.
package safetext

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// escape returns the visible form of r, or "" when r prints as itself.
// keepBreaks keeps "\n" and "\t".
func escape(r rune, keepBreaks bool) string {
	switch {
	case keepBreaks && (r == '\n' || r == '\t'):
		return ""
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f,
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return fmt.Sprintf(`\u%04x`, r)
	case invisible(r):
		return fmt.Sprintf(`\u%04x`, r)
	case r >= 0xe0000 && r <= 0xe007f:
		return fmt.Sprintf(`\U%08x`, r)
	}
	return ""
}

// invisible reports whether r prints as nothing yet changes what a text
// says or how it reads (issue 45: show printed them raw): the marks of
// direction (LRM, RLM, ALM), the line and paragraph separators, the byte
// order mark, the zero-width space and the soft hyphen. Unicode's tag
// characters (U+E0000 to U+E007F), which hide text, are escaped too.
func invisible(r rune) bool {
	switch r {
	case 0x200e, 0x200f, 0x061c, 0x2028, 0x2029, 0xfeff, 0x200b, 0x00ad:
		return true
	}
	return false
}

// Line makes s safe as part of one line: every control character, line
// breaks and tabs included, is escaped, so s can forge no line.
func Line(s string) string { return clean(s, false) }

// Text makes s safe as lines of text: line breaks and tabs stay, every
// other control character is escaped, and no line starts a CI command.
func Text(s string) string { return clean(s, true) }

// clean escapes s (Line or Text); s is returned itself when nothing
// needed escaping.
func clean(s string, keepBreaks bool) string {
	var b strings.Builder
	last := 0
	lineStart := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		esc := ""
		switch {
		case r == utf8.RuneError && n == 1:
			esc = fmt.Sprintf(`\x%02x`, s[i])
		case r == ':' && lineStart && keepBreaks && strings.HasPrefix(s[i:], "::"):
			esc = `\u003a`
		default:
			esc = escape(r, keepBreaks)
		}
		if r != ' ' && r != '\t' {
			lineStart = r == '\n'
		}
		if esc != "" {
			b.WriteString(s[last:i])
			b.WriteString(esc)
			last = i + n
		}
		i += n
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Cap returns s cut to at most n bytes at a rune boundary, saying how
// much was cut: a server's provider name, model id or error message is
// shown, archived and reported, and ten 10 MB provider names made 190 MB
// of every report (issue 32).
func Cap(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes cut)", s[:cut], len(s)-cut)
}

// CSVCell keeps a spreadsheet from reading s as a formula: a cell that
// starts with =, +, -, @, a tab or a carriage return gets a leading
// apostrophe (OWASP's rule for CSV injection), so a model named
// "=HYPERLINK(...)" stays text.
func CSVCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// Writer is an io.Writer that writes Text of everything written to W.
// A UTF-8 sequence split between two writes is held until it completes,
// and the start of a line is tracked across writes.
// It is safe for concurrent use.
type Writer struct {
	W       io.Writer
	mu      sync.Mutex
	pending []byte // an incomplete UTF-8 sequence at the end of the last write
	midLine bool   // the last write ended inside a line
}

// NewWriter returns a Writer to w; w itself when it is one.
func NewWriter(w io.Writer) *Writer {
	if sw, ok := w.(*Writer); ok {
		return sw
	}
	return &Writer{W: w}
}

// Write implements io.Writer; it reports len(p) when W took everything.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	buf := append(w.pending, p...)
	w.pending = nil
	end := len(buf)
	// Hold back an incomplete rune at the end (at most 3 bytes).
	for k := 1; k <= 3 && k <= len(buf); k++ {
		if utf8.RuneStart(buf[len(buf)-k]) {
			if !utf8.FullRune(buf[len(buf)-k:]) {
				end = len(buf) - k
			}
			break
		}
	}
	w.pending = append([]byte(nil), buf[end:]...)
	s := string(buf[:end])
	prefix := ""
	if w.midLine {
		prefix = "x" // a line already started: no "::" rule at s's start
	}
	out := strings.TrimPrefix(Text(prefix+s), prefix)
	if len(s) > 0 {
		w.midLine = s[len(s)-1] != '\n'
	}
	if _, err := io.WriteString(w.W, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what Write held back (the start of a rune that never
// completed), escaped as the bytes that are not UTF-8 it is.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 {
		return nil
	}
	s := Text(string(w.pending))
	w.pending = nil
	_, err := io.WriteString(w.W, s)
	return err
}

// Raw returns the writer under w, for a caller that writes its own
// control sequences (the progress bars) and makes its strings safe itself.
func (w *Writer) Raw() io.Writer { return w.W }
