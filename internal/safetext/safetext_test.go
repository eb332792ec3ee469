package safetext

import (
	"bytes"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestControlCharactersNeverReachTheTerminal: control characters from an
// answer, a provider, an error message or a manifest reached the terminal
// raw (clear screen, window title, OSC 52 clipboard write), and a message
// holding "\n::error title=…::" printed a line that starts a GitHub
// Actions command.
func TestControlCharactersNeverReachTheTerminal(t *testing.T) {
	cases := []struct{ in, line, text, reason string }{
		{"plain ü text", "plain ü text", "plain ü text", "printable text is unchanged"},
		{"a\x1b]52;c;SGk=\ab", `a\u001b]52;c;SGk=\u0007b`, `a\u001b]52;c;SGk=\u0007b`, "OSC 52 clipboard write"},
		{"x\n::error title=t::m", `x\u000a::error title=t::m`, "x\n\\u003a:error title=t::m", "a CI command on a line of its own"},
		{"  ::warning::w", "  ::warning::w", "  \\u003a:warning::w", "a CI command after indentation"},
		{"a\u009b2Jb\x7f", `a\u009b2Jb\u007f`, `a\u009b2Jb\u007f`, "C1 CSI and DEL"},
		{"\xffz", `\xffz`, `\xffz`, "a byte that is not UTF-8"},
		{"a\u202eb\tc\r", `a\u202eb\u0009c\u000d`, "a\\u202eb\tc\\u000d", "bidi override, tab, carriage return"},
		{"a\u200eb\u200fc\u061cd", `a\u200eb\u200fc\u061cd`, `a\u200eb\u200fc\u061cd`, "LRM, RLM and ALM (issue 45: show printed them raw)"},
		{"a\u2028b\u2029c", `a\u2028b\u2029c`, `a\u2028b\u2029c`, "line and paragraph separators"},
		{"\ufeffa\u200bb\u00adc", `\ufeffa\u200bb\u00adc`, `\ufeffa\u200bb\u00adc`, "BOM, zero-width space, soft hyphen"},
		{"a\U000e0041b", `a\U000e0041b`, `a\U000e0041b`, "a Unicode tag character, which hides text"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		if got := Line(c.in); got != c.line {
			t.Errorf("%s: Line(%q) = %q, want %q", c.reason, c.in, got, c.line)
		}
		if got := Text(c.in); got != c.text {
			t.Errorf("%s: Text(%q) = %q, want %q", c.reason, c.in, got, c.text)
		}
	}
}

// TestWriterEscapesAcrossWrites: the terminal writer escapes as Text
// does however the text is split into writes: a rune split between two
// writes is not taken for invalid bytes, and "::" is a line start only
// at one.
func TestWriterEscapesAcrossWrites(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, p := range []string{"ü"[:1], "ü"[1:], " ok ::not\n", "::", "error\x1b\n"} {
		w.Write([]byte(p))
	}
	if want := "ü ok ::not\n\\u003a:error\\u001b\n"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
	// A rune that never completes is written, escaped, by Flush.
	b.Reset()
	w.Write([]byte("ü"[:1]))
	w.Flush()
	if want := `\xc3`; b.String() != want {
		t.Errorf("flushed %q, want %q", b.String(), want)
	}
}

// TestServerStringsCapped: ten 10 MB provider names made 190 MB of every
// report; Cap bounds a string at a rune boundary and says what it cut.
func TestServerStringsCapped(t *testing.T) {
	s := strings.Repeat("é", 1000)
	got := Cap(s, 101)
	if !strings.HasPrefix(got, strings.Repeat("é", 50)+"…") || !strings.HasSuffix(got, "(1900 bytes cut)") {
		t.Errorf("Cap = %q", got)
	}
	if Cap("short", 10) != "short" {
		t.Error("a short string was changed")
	}
}

// TestCSVFormulaNeutralised: a model named =HYPERLINK(…) was a live
// formula in the CSV report.
func TestCSVFormulaNeutralised(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct{ in, want, reason string }{
		{`=HYPERLINK("x")`, `'=HYPERLINK("x")`, "a formula a spreadsheet would run (and follow) stays text"},
		{"+1", "'+1", "a leading + starts a formula too"},
		{"@SUM", "'@SUM", "a leading @ starts a function call in some spreadsheets"},
		{"-2", "'-2", "a leading - starts a formula, though a negative number then reads as text"},
		{"vendor/a", "vendor/a", "a model name that starts no formula is left alone"},
		{"", "", "an empty cell stays empty"},
	}) {
		if got := CSVCell(c.in); got != c.want {
			t.Errorf("CSVCell(%q) = %q, want %q (%s)", c.in, got, c.want, c.reason)
		}
	}
}
