// Package projection is the harness's text projection of a .bend document:
// Markdown in Pandoc's conventions that holds everything the JSON record
// holds, so that the harness can measure what a text form loses when
// models read and write it (the produce suite, formats' "projection").
//
// It is this project's measuring device, not the spec's: §4 defers a
// normative projection to v0.2, and nothing here is proposed as it.
// docs/projection.md is the manual, with an example per construct.
//
// Render writes a document; Parse reads one back and accepts only what
// Render could have written (up to the few leniencies docs/projection.md
// lists), reporting anything else with its line number and the rule. The
// property the tests hold it to is §8.1.1's, for the projection:
// Parse(Render(d)) equals d up to the lossless check's equivalences
// (metric/doc.go), for every corpus document and every ladder rung, and
// anything Parse accepts renders back to the same document.
//
// The projection works on the JSON object model (bend.Value), not the
// typed one, so that every member, known or not, reaches the text: a
// block's form (heading, paragraph, list, quote, code, embed, divider)
// expresses some members, and every other member is written as an
// attribute key=JSON. Nothing is dropped silently.
package projection

import (
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
)

// Format is the name of the answer format whose answers are a
// projection (package formats' table entry), so that packages below
// formats can name it.
const Format = "projection"

// RenderError says why a document has no projection: a member that no
// form or attribute can carry (a block without a string id or kind, a span
// without text, an edge whose subject, predicate or object is not a
// string). Valid documents always render.
type RenderError struct {
	Pointer string // JSON pointer of the member
	Msg     string
}

func (e *RenderError) Error() string { return e.Pointer + ": " + e.Msg }

// Render returns the projection of d. Self-references (bend: references
// naming d's declared id) are written relative, and the declared id is
// left out: Parse computes it (§5.1).
func Render(d *bend.Document) (string, error) {
	c := d.Clone()
	c.MapRefs(func(s string) string { return bend.Relative(s, d.ID) })
	v := c.Value()
	var w []string
	w = append(w, "---")
	for _, m := range v.Members {
		if m.Key == "id" || m.Key == "blocks" || m.Key == "edges" {
			continue
		}
		w = append(w, key(m.Key)+": "+string(bend.MarshalValue(m.Value)))
	}
	w = append(w, "---")
	body, err := renderBlocks(v.Get("blocks").Elems, "/blocks")
	if err != nil {
		return "", err
	}
	if len(body) > 0 {
		w = append(w, "")
		w = append(w, body...)
	}
	edges, err := renderEdges(v.Get("edges").Elems)
	if err != nil {
		return "", err
	}
	if len(edges) > 0 {
		w = append(w, "")
		w = append(w, edges...)
	}
	return strings.Join(w, "\n") + "\n", nil
}

// key writes a front-matter key: bare when it is a plain name, else as a
// JSON string.
func key(k string) string {
	if isName(k) {
		return k
	}
	return string(bend.MarshalValue(bend.StringValue(k)))
}

// renderBlocks writes sibling blocks, one blank line between them.
func renderBlocks(bs []*bend.Value, ptr string) ([]string, error) {
	var out []string
	for i, b := range bs {
		lines, err := renderBlock(b, ptr+"/"+strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out, nil
}

// A form is the Markdown shape of a block: which kind it stands for
// unless a class says otherwise, and the members it expresses.
type form struct {
	kind    string
	members []string
}

// The forms, by the kind a bare form stands for.
var forms = map[string]form{
	bend.KindHeading:   {bend.KindHeading, []string{"spans", "level"}},
	bend.KindParagraph: {bend.KindParagraph, []string{"spans"}},
	bend.KindList:      {bend.KindList, []string{"items", "ordered"}},
	bend.KindQuote:     {bend.KindQuote, []string{"blocks"}},
	bend.KindCode:      {bend.KindCode, []string{"text", "language"}},
	bend.KindEmbed:     {bend.KindEmbed, []string{"target"}},
	bend.KindDivider:   {bend.KindDivider, nil},
}

// formOf chooses a block's form by the members it has (a heading needs a
// level of 1 to 6; a list's ordered flag and a code block's language are
// expressed only when the form can write them), so that any kind, a
// vocabulary's included, gets the Markdown shape of its content.
func formOf(b *bend.Value) (f string, expressed map[string]bool) {
	has := func(k string, kind bend.Kind) bool { m := b.Get(k); return m != nil && m.Kind == kind }
	expressed = map[string]bool{}
	switch {
	case has("spans", bend.Array) && strOf(b.Get("kind")) == bend.KindHeading && headingLevel(b.Get("level")) > 0:
		f = bend.KindHeading
		expressed["level"] = true
	case has("spans", bend.Array):
		f = bend.KindParagraph
	case has("items", bend.Array) && len(b.Get("items").Elems) > 0 && has("ordered", bend.Bool):
		// An empty list would read as an empty paragraph, and the items'
		// markers always say ordered or not: other lists take another
		// form, with items= (and ordered=) as attributes.
		f = bend.KindList
		expressed["ordered"] = true
	case has("blocks", bend.Array):
		f = bend.KindQuote
	case has("text", bend.String) && isVerbatim(b.Get("text").Str):
		f = bend.KindCode
		if l := b.Get("language"); l != nil && l.Kind == bend.String && isWord(l.Str) {
			expressed["language"] = true
		}
	case has("target", bend.String) && isTarget(b.Get("target").Str):
		f = bend.KindEmbed
	default:
		f = bend.KindDivider
	}
	if len(forms[f].members) > 0 {
		expressed[forms[f].members[0]] = true
	}
	return f, expressed
}

func headingLevel(v *bend.Value) int {
	if v == nil || v.Kind != bend.Number || len(v.Str) != 1 || v.Str[0] < '1' || v.Str[0] > '6' {
		return 0
	}
	return int(v.Str[0] - '0')
}

func strOf(v *bend.Value) string {
	if v == nil || v.Kind != bend.String {
		return ""
	}
	return v.Str
}

// blockAttrs writes a block's attributes: its id, its kind as a class when
// the form stands for another, and every member the form does not express.
func blockAttrs(b *bend.Value, f string, expressed map[string]bool, ptr string) (string, error) {
	id, kind := b.Get("id"), b.Get("kind")
	if id == nil || id.Kind != bend.String || !bend.IsIdent(id.Str) {
		return "", &RenderError{ptr + "/id", "a block needs an id of letters, digits, '-' and '_'"}
	}
	if kind == nil || kind.Kind != bend.String || !isWord(kind.Str) {
		return "", &RenderError{ptr + "/kind", "a block needs a kind written as one word"}
	}
	a := []string{"#" + id.Str}
	if kind.Str != f {
		a = append(a, "."+kind.Str)
	}
	for _, m := range b.Members {
		if m.Key == "id" || m.Key == "kind" || expressed[m.Key] {
			continue
		}
		s, err := attr(m, ptr)
		if err != nil {
			return "", err
		}
		a = append(a, s)
	}
	return "{" + strings.Join(a, " ") + "}", nil
}

// attr writes one member as key=value: a bare word when the value is a
// string that reads as one, else compact JSON.
func attr(m bend.Member, ptr string) (string, error) {
	if !isName(m.Key) {
		return "", &RenderError{ptr + "/" + m.Key, "a member name must be letters, digits, '_', '-' or '.' to be an attribute"}
	}
	if m.Value.Kind == bend.String && isBare(m.Value.Str) {
		return m.Key + "=" + m.Value.Str, nil
	}
	return m.Key + "=" + string(bend.MarshalValue(m.Value)), nil
}

// renderBlock writes one block in its form.
func renderBlock(b *bend.Value, ptr string) ([]string, error) {
	if b.Kind != bend.Object {
		return nil, &RenderError{ptr, "a block must be an object"}
	}
	f, expressed := formOf(b)
	attrs, err := blockAttrs(b, f, expressed, ptr)
	if err != nil {
		return nil, err
	}
	switch f {
	case bend.KindHeading, bend.KindParagraph:
		spans, err := renderSpans(b.Get("spans").Elems, ptr+"/spans")
		if err != nil {
			return nil, err
		}
		text := attrs
		if spans != "" {
			text = spans + " " + attrs
		}
		if f == bend.KindHeading {
			text = strings.Repeat("#", headingLevel(b.Get("level"))) + " " + text
		}
		return strings.Split(text, "\n"), nil
	case bend.KindList:
		return renderList(b, attrs, ptr)
	case bend.KindQuote:
		return renderQuote(b, attrs, ptr)
	case bend.KindCode:
		return renderCode(b, attrs, expressed["language"]), nil
	case bend.KindEmbed:
		return []string{"![](" + b.Get("target").Str + ")" + attrs}, nil
	}
	return []string{"--- " + attrs}, nil
}

// renderList writes a list as its attributes on a line of their own and
// right under them a Markdown list: "- " items, or "1. ", "2. ", … when
// ordered. Each item's first line carries its attributes; its blocks
// follow, indented to the item's text. (Not a Pandoc fenced div: the
// harness escapes every printed line that starts with "::", as a CI log
// would read it as a command.)
func renderList(b *bend.Value, attrs, ptr string) ([]string, error) {
	out := []string{attrs}
	ordered := b.Get("ordered")
	for i, it := range b.Get("items").Elems {
		p := ptr + "/items/" + strconv.Itoa(i)
		marker := "- "
		if ordered != nil && ordered.Kind == bend.Bool && ordered.Bool {
			marker = strconv.Itoa(i+1) + ". "
		}
		lines, err := renderItem(it, marker, p)
		if err != nil {
			return nil, err
		}
		out = append(out, lines...)
	}
	return out, nil
}

// renderItem writes a list item: its marker and attributes, then its
// blocks after a blank line, indented by the marker's width.
func renderItem(it *bend.Value, marker, ptr string) ([]string, error) {
	if it.Kind != bend.Object || it.Get("blocks") == nil || it.Get("blocks").Kind != bend.Array {
		return nil, &RenderError{ptr, "a list item needs a \"blocks\" array"}
	}
	attrs, err := blockAttrs(it, bend.KindListItem, map[string]bool{"blocks": true}, ptr)
	if err != nil {
		return nil, err
	}
	out := []string{marker + attrs}
	children, err := renderBlocks(it.Get("blocks").Elems, ptr+"/blocks")
	if err != nil {
		return nil, err
	}
	if len(children) > 0 {
		out = append(out, "")
	}
	return append(out, indent(children, strings.Repeat(" ", len(marker)), "")...), nil
}

// renderQuote writes a quote: "> " and its attributes, then its blocks
// after a ">" line, every line prefixed "> " (an empty one ">").
func renderQuote(b *bend.Value, attrs, ptr string) ([]string, error) {
	children, err := renderBlocks(b.Get("blocks").Elems, ptr+"/blocks")
	if err != nil {
		return nil, err
	}
	out := []string{"> " + attrs}
	if len(children) > 0 {
		out = append(out, ">")
	}
	return append(out, indent(children, "> ", ">")...), nil
}

// indent prefixes every line; an empty line gets empty, so that no line
// ends in white space a model might trim.
func indent(lines []string, prefix, empty string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == "" {
			out[i] = empty
		} else {
			out[i] = prefix + l
		}
	}
	return out
}

// renderCode writes a fenced code block: a fence longer than any run of
// backticks in the text, the language as a word, the attributes, the
// text line by line as it is.
func renderCode(b *bend.Value, attrs string, language bool) []string {
	text := b.Get("text").Str
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	head := fence + " "
	if language {
		head = fence + b.Get("language").Str + " "
	}
	out := []string{head + attrs}
	if text != "" {
		out = append(out, strings.Split(text, "\n")...)
	}
	return append(out, fence)
}

func longestRun(s string, c byte) int {
	n, best := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// renderEdges writes the document's edges as a list under the line
// {.edges}: subject, predicate and object, then any other member (meta)
// as attributes.
func renderEdges(es []*bend.Value) ([]string, error) {
	if len(es) == 0 {
		return nil, nil
	}
	out := []string{EdgesLine}
	for i, e := range es {
		ptr := "/edges/" + strconv.Itoa(i)
		if e.Kind != bend.Object {
			return nil, &RenderError{ptr, "an edge must be an object"}
		}
		line := "-"
		for _, k := range []string{"subject", "predicate", "object"} {
			v := e.Get(k)
			if v == nil || v.Kind != bend.String || v.Str == "" {
				return nil, &RenderError{ptr + "/" + k, "an edge needs a non-empty string " + k}
			}
			line += " " + token(v.Str)
		}
		var a []string
		for _, m := range e.Members {
			if m.Key == "subject" || m.Key == "predicate" || m.Key == "object" {
				continue
			}
			s, err := attr(m, ptr)
			if err != nil {
				return nil, err
			}
			a = append(a, s)
		}
		if len(a) > 0 {
			line += " {" + strings.Join(a, " ") + "}"
		}
		out = append(out, line)
	}
	return out, nil
}

// EdgesLine starts the list of the document's edges, after the body.
const EdgesLine = "{.edges}"

// token writes an edge's subject, predicate or object: as it is when it
// holds no white space and cannot be read as JSON or attributes, else as
// a JSON string.
func token(s string) string {
	if strings.ContainsAny(s, " \t\r\n\"{}") || !isPrintable(s) {
		return string(bend.MarshalValue(bend.StringValue(s)))
	}
	return s
}

// isPrintable reports whether s prints as it is: no line break or tab,
// nothing the terminal filter escapes (filtered), no line or paragraph
// separator.
func isPrintable(s string) bool {
	for _, r := range s {
		if r == '\n' || r == '\t' || filtered(r) || r == 0x2028 || r == 0x2029 {
			return false
		}
	}
	return true
}

// isVerbatim reports whether a code block's text can be written as its
// lines: nothing the terminal filter escapes, and no line that starts
// with "::" (after spaces), which the filter escapes too.
func isVerbatim(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") {
			return false
		}
	}
	for _, r := range s {
		if filtered(r) {
			return false
		}
	}
	return true
}
