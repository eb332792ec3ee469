package projection

import (
	"fmt"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
)

// Error is a place where a text is not the projection: its 1-based line
// and the rule it breaks.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// MaxNesting bounds how deep blocks nest in a projection (lists, items,
// quotes), so that a hostile text cannot exhaust the stack; the corpus
// nests 8 deep.
const MaxNesting = 64

// line is one line of the text as a block sees it: its number in the
// whole text and its text with the enclosing blocks' indentation or "> "
// taken off.
type line struct {
	n    int
	text string
}

// Parse reads a projection back into a document, with its declared id
// computed (§5.1). Anything that is not the projection is an *Error with
// its line; a text over bend.MaxSize is refused before it is read.
func Parse(text string) (*bend.Document, error) {
	if len(text) > bend.MaxSize {
		return nil, &Error{1, fmt.Sprintf("the text is %d bytes, over the %d-byte limit of a document (§3)", len(text), bend.MaxSize)}
	}
	raw := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	lines := make([]line, len(raw))
	for i, l := range raw {
		lines[i] = line{i + 1, l}
	}
	doc, i, err := frontMatter(lines)
	if err != nil {
		return nil, err
	}
	body := len(lines)
	for k := i; k < len(lines); k++ {
		if lines[k].text == EdgesLine {
			body = k
			break
		}
	}
	blocks, err := parseBlocks(lines[i:body], 0)
	if err != nil {
		return nil, err
	}
	edges, err := parseEdges(lines[body:])
	if err != nil {
		return nil, err
	}
	doc.Members = append(doc.Members, bend.Member{Key: "blocks", Value: array(blocks)}, bend.Member{Key: "edges", Value: array(edges)})
	d := bend.FromValue(doc)
	id, err := bend.ID(d)
	if err != nil {
		return nil, &Error{1, err.Error()}
	}
	d.ID = id
	return d, nil
}

func array(elems []*bend.Value) *bend.Value {
	if elems == nil {
		elems = []*bend.Value{}
	}
	return &bend.Value{Kind: bend.Array, Elems: elems}
}

// frontMatter reads the YAML metadata block: "---", one "key: JSON" line
// per document member (not id, blocks or edges), "---". It returns the
// document object so far and the index of the line after it.
func frontMatter(lines []line) (*bend.Value, int, error) {
	if len(lines) == 0 || lines[0].text != "---" {
		return nil, 0, &Error{1, `a projection starts with its metadata block: a line "---"`}
	}
	doc := &bend.Value{Kind: bend.Object}
	seen := map[string]bool{}
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		if l.text == "---" {
			return doc, i + 1, nil
		}
		k, rest, err := frontKey(l)
		if err != nil {
			return nil, 0, err
		}
		switch {
		case k == "id":
			return nil, 0, &Error{l.n, `the projection carries no "id": the parser computes it from the content (§5.1)`}
		case k == "blocks" || k == "edges":
			return nil, 0, &Error{l.n, fmt.Sprintf("%q are written as the body, not in the metadata block", k)}
		case seen[k]:
			return nil, 0, &Error{l.n, fmt.Sprintf("metadata key %q given twice", k)}
		}
		seen[k] = true
		v, err := bend.ParseValue([]byte(rest))
		if err != nil {
			return nil, 0, &Error{l.n, fmt.Sprintf("metadata %q: the value must be one line of JSON: %v", k, err)}
		}
		doc.Members = append(doc.Members, bend.Member{Key: k, Value: v})
	}
	return nil, 0, &Error{lines[len(lines)-1].n, `the metadata block is not closed by a line "---"`}
}

// frontKey splits "key: value"; a key is a name or a JSON string.
func frontKey(l line) (string, string, error) {
	t := l.text
	if strings.HasPrefix(t, `"`) {
		end := jsonEnd(t, 0)
		if end < 0 || !strings.HasPrefix(t[end:], ": ") {
			return "", "", &Error{l.n, `a metadata line is key: JSON value`}
		}
		v, err := bend.ParseValue([]byte(t[:end]))
		if err != nil {
			return "", "", &Error{l.n, "metadata key: " + err.Error()}
		}
		return v.Str, t[end+2:], nil
	}
	k, rest, ok := strings.Cut(t, ": ")
	if !ok || !isName(k) {
		return "", "", &Error{l.n, `a metadata line is key: JSON value (the key letters, digits, '_', '-' or '.')`}
	}
	return k, rest, nil
}

// parseBlocks reads sibling blocks, separated by blank lines.
func parseBlocks(lines []line, depth int) ([]*bend.Value, error) {
	var out []*bend.Value
	for i := 0; i < len(lines); {
		if lines[i].text == "" {
			i++
			continue
		}
		if len(out) > 0 && lines[i-1].text != "" {
			return nil, &Error{lines[i].n, "blocks are separated by a blank line"}
		}
		b, next, err := parseBlock(lines, i, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
		i = next
	}
	return out, nil
}

// parseBlock reads the block that starts at lines[i], by its first
// characters, and returns it and the index of the line after it.
func parseBlock(lines []line, i, depth int) (*bend.Value, int, error) {
	t := lines[i].text
	switch {
	case strings.HasPrefix(t, "#"):
		return parseHeading(lines, i)
	case strings.HasPrefix(t, "{") && i+1 < len(lines) && startsItem(lines[i+1].text):
		return parseList(lines, i, depth)
	case strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{"):
		return parseInline(lines, i, 0, bend.KindParagraph, nil)
	case strings.HasPrefix(t, "```"):
		return parseCode(lines, i)
	case strings.HasPrefix(t, "--- {"):
		b, err := blockOf(lines[i], t[len("--- "):], bend.KindDivider)
		return b, i + 1, err
	case strings.HasPrefix(t, "![]("):
		b, err := parseEmbed(lines[i])
		return b, i + 1, err
	case strings.HasPrefix(t, ">"):
		return parseQuote(lines, i, depth)
	}
	return nil, 0, &Error{lines[i].n, "not a block: a block starts with # (heading), [ or { (paragraph), ``` (code), --- { (divider), ![]( (embed), {#…} and items under it (list) or > (quote)"}
}

// blockOf makes a block object from its attribute text (which must be the
// rest of the line): the id, the kind (a class, else the form's), and the
// other attributes as members.
func blockOf(l line, text, kind string) (*bend.Value, error) {
	a, rest, err := parseAttrs(l, text)
	if err != nil {
		return nil, err
	}
	if rest != "" {
		return nil, &Error{l.n, fmt.Sprintf("unexpected %q after the attributes", cutText(rest))}
	}
	if a.id == "" {
		return nil, &Error{l.n, "a block's attributes start with its id: {#blk-…}"}
	}
	if len(a.classes) > 1 {
		return nil, &Error{l.n, "a block has at most one class, its kind"}
	}
	if len(a.classes) == 1 {
		kind = a.classes[0]
	}
	b := &bend.Value{Kind: bend.Object, Members: []bend.Member{{Key: "id", Value: bend.StringValue(a.id)}, {Key: "kind", Value: bend.StringValue(kind)}}}
	for _, m := range a.members {
		if m.Key == "id" || m.Key == "kind" {
			return nil, &Error{l.n, fmt.Sprintf("%s is written as #id or .kind, not %s=", m.Key, m.Key)}
		}
	}
	b.Members = append(b.Members, a.members...)
	return b, nil
}

// nested checks that a container on line n, at depth, may hold blocks:
// they would be at depth+1. The container's own line is named, so that
// the check needs no blocks to exist (an empty innermost item or quote
// used to index an empty line list here).
func nested(n, depth int) error {
	if depth+1 > MaxNesting {
		return &Error{n, fmt.Sprintf("blocks nest more than %d deep", MaxNesting)}
	}
	return nil
}

// set adds member k to object o, refusing one an attribute gave already.
func set(o *bend.Value, k string, v *bend.Value, n int) error {
	if o.Get(k) != nil {
		return &Error{n, fmt.Sprintf("%q is given by the block's form and again as an attribute", k)}
	}
	o.Members = append(o.Members, bend.Member{Key: k, Value: v})
	return nil
}

// parseHeading reads "#… spans {attrs}": a heading of level 1 to 6.
func parseHeading(lines []line, i int) (*bend.Value, int, error) {
	t := lines[i].text
	level := len(t) - len(strings.TrimLeft(t, "#"))
	if level > 6 || !strings.HasPrefix(t[level:], " ") {
		return nil, 0, &Error{lines[i].n, "a heading is 1 to 6 '#', a space, its spans and its attributes"}
	}
	return parseInline(lines, i, level+1, bend.KindHeading, &bend.Value{Kind: bend.Number, Str: strconv.Itoa(level)})
}

// parseInline reads spans and the block's attributes from column col of
// lines[i] on (spans may go on over lines after a backslash), and makes a
// block of the form kind; level, when set, is a heading's.
func parseInline(lines []line, i, col int, kind string, level *bend.Value) (*bend.Value, int, error) {
	c := &cursor{lines: lines, i: i, col: col}
	var spans []*bend.Value
	for c.peek() == '[' {
		s, err := c.span()
		if err != nil {
			return nil, 0, err
		}
		spans = append(spans, s)
	}
	rest := c.rest()
	if len(spans) > 0 {
		if !strings.HasPrefix(rest, " {") {
			return nil, 0, &Error{c.n(), "after a block's spans come a space and the block's attributes {#blk-…}"}
		}
		rest = rest[1:]
	}
	b, err := blockOf(line{c.n(), ""}, rest, kind)
	if err != nil {
		return nil, 0, err
	}
	if level != nil {
		if err := set(b, "level", level, c.n()); err != nil {
			return nil, 0, err
		}
	}
	if err := set(b, "spans", array(spans), c.n()); err != nil {
		return nil, 0, err
	}
	return b, c.i + 1, nil
}

// parseCode reads a fenced code block: the fence, an optional language,
// the attributes, the text's lines as they are, the same fence.
func parseCode(lines []line, i int) (*bend.Value, int, error) {
	l := lines[i]
	fence := l.text[:len(l.text)-len(strings.TrimLeft(l.text, "`"))]
	lang, attrs, ok := strings.Cut(l.text[len(fence):], " ")
	if !ok {
		return nil, 0, &Error{l.n, "a code block's fence is followed by its language (if any), a space and its attributes"}
	}
	b, err := blockOf(l, attrs, bend.KindCode)
	if err != nil {
		return nil, 0, err
	}
	if lang != "" {
		if err := set(b, "language", bend.StringValue(lang), l.n); err != nil {
			return nil, 0, err
		}
	}
	var text []string
	for k := i + 1; k < len(lines); k++ {
		if lines[k].text == fence {
			return b, k + 1, set(b, "text", bend.StringValue(strings.Join(text, "\n")), l.n)
		}
		text = append(text, lines[k].text)
	}
	return nil, 0, &Error{l.n, "the code block is not closed by its fence " + fence}
}

// parseEmbed reads "![](target){attrs}".
func parseEmbed(l line) (*bend.Value, error) {
	t := l.text[len("![]("):]
	target, attrs, ok := strings.Cut(t, ")")
	if !ok || !isTarget(target) {
		return nil, &Error{l.n, "an embed is ![](target){#blk-…}, the target without spaces or brackets"}
	}
	b, err := blockOf(l, attrs, bend.KindEmbed)
	if err != nil {
		return nil, err
	}
	return b, set(b, "target", bend.StringValue(target), l.n)
}

func cutText(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
