package metric

import (
	"fmt"
	"strings"
	"unicode"

	"bendscript.com/round-trip-harness/bend"
)

// Extraction is the JSON value found in a model's raw completion.
type Extraction struct {
	How    string      // ExtractionBare, ExtractionFenced or ExtractionNone
	Value  *bend.Value // nil when none was found
	Reason string      // why the completion holds no usable JSON; "" when it does
	Prose  int         // non-blank characters outside the chosen fence
}

// ExtractJSON finds the JSON value in raw, a model's completion: the one
// rule for answers, documents and judge votes alike. The whole answer, less white
// space and a byte-order mark, is tried first (bare). Otherwise the answer's
// Markdown code fences are read: exactly one fence holding a JSON object is
// used (fenced); when several do, the one that want accepts is used if it is
// the only one. Anything else is no JSON (none), with the reason.
func ExtractJSON(raw string, want func(*bend.Value) bool) Extraction {
	return extract(raw, bend.Object, "object", want)
}

// ExtractJSONArray is ExtractJSON for answers that are a JSON array (a
// patch, package formats): the same rule, with a fenced block counting when
// it holds an array rather than an object. A bare answer is returned
// whatever its kind, as ExtractJSON returns it, so that the caller can say
// what it found.
func ExtractJSONArray(raw string, want func(*bend.Value) bool) Extraction {
	return extract(raw, bend.Array, "array", want)
}

// extract is ExtractJSON for fenced values of the given kind (noun names
// it in reasons).
func extract(raw string, kind bend.Kind, noun string, want func(*bend.Value) bool) Extraction {
	trimmed := strings.TrimSpace(strings.TrimPrefix(raw, "\ufeff"))
	if trimmed == "" {
		return Extraction{How: ExtractionNone, Reason: "the answer is empty"}
	}
	v, bareErr := bend.ParseValue([]byte(trimmed))
	if bareErr == nil {
		return Extraction{How: ExtractionBare, Value: v}
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
		case v.Kind == kind:
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
			return Extraction{How: ExtractionNone, Reason: fmt.Sprintf("%d fenced blocks hold JSON %ss; want exactly one", len(objects), noun)}
		}
		objects = wanted
	}
	switch {
	case len(objects) == 1:
		c := objects[0]
		return Extraction{How: ExtractionFenced, Value: c.v, Prose: nonBlank(raw[:c.f.start]) + nonBlank(raw[c.f.end:])}
	case len(fences) == 1 && firstErr != nil:
		return Extraction{How: ExtractionFenced, Reason: "the fenced block is not JSON: " + firstErr.Error()}
	case len(fences) > 0:
		return Extraction{How: ExtractionNone, Reason: "no fenced block holds a JSON " + noun}
	}
	return Extraction{How: ExtractionNone, Reason: "the answer is not JSON and has no fenced block: " + bareErr.Error()}
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
