package metric

import (
	"fmt"
	"strings"
	"unicode"

	"bendscript.com/round-trip-harness/bend"
)

// extraction is the JSON value found in a model's raw answer.
type extraction struct {
	how    string      // ExtractionBare, ExtractionFenced or ExtractionNone
	value  *bend.Value // nil when none was found
	reason string      // why the answer holds no usable JSON; "" when it does
	prose  int         // non-blank characters outside the chosen fence
}

// extractJSON finds the JSON value in raw. The whole answer, less white
// space and a byte-order mark, is tried first (bare). Otherwise the answer's
// Markdown code fences are read: exactly one fence holding a JSON object is
// used (fenced); when several do, the one that want accepts is used if it is
// the only one. Anything else is no JSON (none), with the reason.
func extractJSON(raw string, want func(*bend.Value) bool) extraction {
	trimmed := strings.TrimSpace(strings.TrimPrefix(raw, "\ufeff"))
	if trimmed == "" {
		return extraction{how: ExtractionNone, reason: "the answer is empty"}
	}
	v, bareErr := bend.ParseValue([]byte(trimmed))
	if bareErr == nil {
		return extraction{how: ExtractionBare, value: v}
	}
	fences := findFences(raw)
	type candidate struct {
		f fence
		v *bend.Value
	}
	var objects []candidate
	var firstErr error
	for _, f := range fences {
		v, err := bend.ParseValue([]byte(strings.TrimSpace(f.body)))
		switch {
		case err != nil:
			if firstErr == nil {
				firstErr = err
			}
		case v.Kind == bend.Object:
			objects = append(objects, candidate{f, v})
		}
	}
	if len(objects) > 1 {
		var wanted []candidate
		for _, c := range objects {
			if want(c.v) {
				wanted = append(wanted, c)
			}
		}
		if len(wanted) != 1 {
			return extraction{how: ExtractionNone, reason: fmt.Sprintf("%d fenced blocks hold JSON objects; want exactly one", len(objects))}
		}
		objects = wanted
	}
	switch {
	case len(objects) == 1:
		c := objects[0]
		return extraction{how: ExtractionFenced, value: c.v, prose: nonBlank(raw[:c.f.start]) + nonBlank(raw[c.f.end:])}
	case len(fences) == 1 && firstErr != nil:
		return extraction{how: ExtractionFenced, reason: "the fenced block is not JSON: " + firstErr.Error()}
	case len(fences) > 0:
		return extraction{how: ExtractionNone, reason: "no fenced block holds a JSON object"}
	}
	return extraction{how: ExtractionNone, reason: "the answer is not JSON and has no fenced block: " + bareErr.Error()}
}

// fence is one Markdown code fence: the byte range of the whole fence in
// the answer, and the text between its opening and closing lines.
type fence struct {
	start, end int
	body       string
}

// findFences returns the fenced code blocks of s (CommonMark: a line of at
// least three backticks or tildes, indented at most three spaces, opens; a
// line of at least as many of the same character, and nothing else, closes;
// an unclosed fence runs to the end).
func findFences(s string) []fence {
	var out []fence
	var open *fence
	var char byte
	var width, bodyStart int
	for off := 0; off < len(s); {
		end := strings.IndexByte(s[off:], '\n')
		next := len(s)
		if end >= 0 {
			next = off + end + 1
		}
		line := strings.TrimRight(s[off:next], "\r\n")
		c, n, info := fenceLine(line)
		switch {
		case open == nil && n >= 3 && !(c == '`' && strings.ContainsRune(info, '`')):
			open = &fence{start: off}
			char, width, bodyStart = c, n, next
		case open != nil && c == char && n >= width && strings.TrimSpace(info) == "":
			open.end = next
			open.body = s[bodyStart:off]
			out = append(out, *open)
			open = nil
		}
		off = next
	}
	if open != nil {
		open.end = len(s)
		open.body = s[bodyStart:]
		out = append(out, *open)
	}
	return out
}

// fenceLine reports the fence character and run length that line starts
// with (after at most three spaces), and the rest of the line.
func fenceLine(line string) (c byte, n int, rest string) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i == len(line) || (line[i] != '`' && line[i] != '~') {
		return 0, 0, ""
	}
	c = line[i]
	j := i
	for j < len(line) && line[j] == c {
		j++
	}
	return c, j - i, line[j:]
}

func nonBlank(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}
