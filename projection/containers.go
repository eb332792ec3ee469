package projection

import (
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/bend"
)

// parseList reads a list: its attributes on a line of their own, and
// right under them its items, each "- " or "N. " and its attributes,
// then its blocks indented by the marker's width; "N. " items make an
// ordered list. The list ends at the first line after a blank one that
// is no item.
func parseList(lines []line, i, depth int) (*bend.Value, int, error) {
	b, err := blockOf(lines[i], lines[i].text, bend.KindList)
	if err != nil {
		return nil, 0, err
	}
	var items []*bend.Value
	ordered := ""
	k := i + 1
	for k < len(lines) {
		if lines[k].text == "" {
			k++
			continue
		}
		marker, kind := itemMarker(lines[k].text)
		if marker == 0 {
			break
		}
		if ordered != "" && ordered != kind {
			return nil, 0, &Error{lines[k].n, "a list's items are all \"- \" (unordered) or all numbered (ordered)"}
		}
		ordered = kind
		item, next, err := parseItem(lines, k, marker, depth)
		if err != nil {
			return nil, 0, err
		}
		items = append(items, item)
		k = next
	}
	if err := set(b, "ordered", &bend.Value{Kind: bend.Bool, Bool: ordered == "ordered"}, lines[i].n); err != nil {
		return nil, 0, err
	}
	return b, k, set(b, "items", array(items), lines[i].n)
}

// startsItem reports whether a line starts a list item.
func startsItem(t string) bool {
	n, _ := itemMarker(t)
	return n > 0
}

// itemMarker returns the width of a list item's marker ("- " is 2, "12. "
// is 4) and whether it is ordered; 0 when the line starts no item.
func itemMarker(t string) (int, string) {
	if strings.HasPrefix(t, "- ") {
		return 2, "unordered"
	}
	d := len(t) - len(strings.TrimLeft(t, "0123456789"))
	if d > 0 && d < 10 && strings.HasPrefix(t[d:], ". ") {
		return d + 2, "ordered"
	}
	return 0, ""
}

// parseItem reads one list item: its attributes after the marker, and
// the blocks indented under it.
func parseItem(lines []line, k, marker, depth int) (*bend.Value, int, error) {
	l := lines[k]
	item, err := blockOf(l, l.text[marker:], bend.KindListItem)
	if err != nil {
		return nil, 0, err
	}
	if err := nested(l.n, depth); err != nil {
		return nil, 0, err
	}
	pad := strings.Repeat(" ", marker)
	var children []line
	j := k + 1
	for ; j < len(lines); j++ {
		t := lines[j].text
		if strings.TrimLeft(t, " ") == "" {
			children = append(children, line{lines[j].n, ""})
			continue
		}
		if !strings.HasPrefix(t, pad) {
			break
		}
		children = append(children, line{lines[j].n, t[marker:]})
	}
	blocks, err := parseBlocks(children, depth+1)
	if err != nil {
		return nil, 0, err
	}
	return item, j, set(item, "blocks", array(blocks), l.n)
}

// parseQuote reads the lines that start with ">": "> {attrs}", then its
// blocks after a ">" line, each line's "> " taken off.
func parseQuote(lines []line, i, depth int) (*bend.Value, int, error) {
	var inner []line
	k := i
	for ; k < len(lines) && strings.HasPrefix(lines[k].text, ">"); k++ {
		t := lines[k].text
		switch {
		case t == ">":
			t = ""
		case strings.HasPrefix(t, "> "):
			t = t[2:]
		default:
			return nil, 0, &Error{lines[k].n, `a quote's lines start with "> " (or are ">" alone)`}
		}
		inner = append(inner, line{lines[k].n, t})
	}
	b, err := blockOf(inner[0], inner[0].text, bend.KindQuote)
	if err != nil {
		return nil, 0, err
	}
	if err := nested(inner[0].n, depth); err != nil {
		return nil, 0, err
	}
	if len(inner) > 1 && inner[1].text != "" {
		return nil, 0, &Error{inner[1].n, `a quote's blocks follow its attributes after a line ">"`}
	}
	blocks, err := parseBlocks(inner[1:], depth+1)
	if err != nil {
		return nil, 0, err
	}
	return b, k, set(b, "blocks", array(blocks), inner[0].n)
}

// parseEdges reads the edges: the line {.edges}, then one "- subject
// predicate object {attrs}" line per edge, and nothing after them but
// blank lines.
func parseEdges(lines []line) ([]*bend.Value, error) {
	if len(lines) == 0 {
		return nil, nil
	}
	var out []*bend.Value
	k := 1
	for ; k < len(lines) && lines[k].text != ""; k++ {
		e, err := parseEdge(lines[k])
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	for _, l := range lines[k:] {
		if l.text != "" {
			return nil, &Error{l.n, "nothing follows the edges"}
		}
	}
	return out, nil
}

// parseEdge reads "- subject predicate object" and its attributes.
func parseEdge(l line) (*bend.Value, error) {
	rest, ok := strings.CutPrefix(l.text, "- ")
	if !ok {
		return nil, &Error{l.n, `an edge is "- subject predicate object", then its meta as {meta={…}}`}
	}
	e := &bend.Value{Kind: bend.Object}
	for _, k := range []string{"subject", "predicate", "object"} {
		tok, after, err := readToken(l, rest)
		if err != nil {
			return nil, err
		}
		e.Members = append(e.Members, bend.Member{Key: k, Value: bend.StringValue(tok)})
		rest = after
		if k != "object" {
			if rest, ok = strings.CutPrefix(rest, " "); !ok {
				return nil, &Error{l.n, "an edge needs a subject, a predicate and an object, separated by spaces"}
			}
		}
	}
	if rest == "" {
		return e, nil
	}
	a, after, err := parseAttrs(l, strings.TrimPrefix(rest, " "))
	switch {
	case err != nil:
		return nil, err
	case !strings.HasPrefix(rest, " ") || after != "":
		return nil, &Error{l.n, "an edge's attributes follow its object after a space and end the line"}
	case a.id != "" || len(a.classes) > 0:
		return nil, &Error{l.n, "an edge has no id and no class: its attributes are key=value"}
	}
	for _, m := range a.members {
		// The attributes' keys are distinct (parseAttrs): only the three
		// members written before them can be given again.
		if m.Key == "subject" || m.Key == "predicate" || m.Key == "object" {
			return nil, &Error{l.n, fmt.Sprintf("%q is given twice", m.Key)}
		}
	}
	e.Members = append(e.Members, a.members...)
	return e, nil
}

// readToken reads an edge's subject, predicate or object: a JSON string,
// or the text up to the next space.
func readToken(l line, s string) (string, string, error) {
	if strings.HasPrefix(s, `"`) {
		end := jsonEnd(s, 0)
		if end < 0 {
			return "", "", &Error{l.n, "an unterminated JSON string"}
		}
		v, err := bend.ParseValue([]byte(s[:end]))
		if err != nil {
			return "", "", &Error{l.n, err.Error()}
		}
		return v.Str, s[end:], nil
	}
	tok, _, _ := strings.Cut(s, " ")
	if tok == "" {
		return "", "", &Error{l.n, "an edge needs a subject, a predicate and an object, separated by single spaces"}
	}
	return tok, s[len(tok):], nil
}
