package formats

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// SearchReplace is the name of the text-edit format (issue 35): Aider's
// SEARCH/REPLACE blocks, the way coding agents edit files.
const SearchReplace = "search-replace"

// The markers of a block, each alone on its line (trailing white space
// allowed), as Aider writes them.
const (
	SearchMarker  = "<<<<<<< SEARCH"
	DividerMarker = "======="
	ReplaceMarker = ">>>>>>> REPLACE"
)

// The kinds of Failure of a search-replace answer, besides NotFormat (a
// block left open, an empty SEARCH, more than MaxBlocks blocks).
const (
	NoBlocks      = "no_blocks"       // the answer holds no SEARCH/REPLACE block
	NotFound      = "not_found"       // a SEARCH does not occur in the text as it stands
	Ambiguous     = "ambiguous"       // a SEARCH occurs more than once
	EditedNotJSON = "edited_not_json" // the text after the edits is not JSON
)

// MaxBlocks bounds the blocks of one answer: each block scans and copies
// the whole text, so a hostile answer of a million one-line blocks on a
// 512 KB document would cost hours; no honest edit of the corpus needs
// more than a few dozen.
const MaxBlocks = 1000

// excerptLen bounds the excerpt of the text a failure quotes.
const excerptLen = 80

// srBlock is one SEARCH/REPLACE block as the answer wrote it.
type srBlock struct{ search, replace string }

// String is the block as an answer writes it.
func (b srBlock) String() string { return strings.TrimSuffix(Block(b.search, b.replace), "\n") }

// Block writes one SEARCH/REPLACE block as an answer holds it, markers on
// lines of their own, ending in a line break.
func Block(search, replace string) string {
	return SearchMarker + "\n" + search + "\n" + DividerMarker + "\n" + replace + "\n" + ReplaceMarker + "\n"
}

// text is the block for a Failure's Text: its SEARCH part, quoted on one
// line and cut.
func (b srBlock) text() string {
	return "SEARCH " + cut(fmt.Sprintf("%q", b.search), MaxText-len("SEARCH "))
}

// applySearchReplace applies the blocks of raw, in order, to the text of
// given: each SEARCH (the lines between its markers, without the last line
// break) must occur exactly once in the text as the blocks before it left
// it, and is replaced by its REPLACE. The text after the last block must be
// JSON; the metric then reads it as a document answer. Text outside the
// blocks (prose, fences) is ignored. Line ends are "\n" in both the
// answer and the given text ("\r\n" is read as "\n").
func applySearchReplace(given []byte, raw string) ([]byte, *Failure) {
	blocks, fail := parseBlocks(raw)
	if fail != nil {
		return nil, fail
	}
	// The given text is read as the answer is, "\r\n" as "\n": a
	// document written with CRLF line ends (JSON allows them as white
	// space) failed every block of more than one line, the oracle's
	// included (issue 45).
	text := strings.ReplaceAll(string(given), "\r\n", "\n")
	var regions []region
	for i, b := range blocks {
		at, n := find(text, b.search)
		switch {
		case n == 0:
			return nil, srAt(NotFound, i, b, "the SEARCH text does not occur in the document as it stands"+afterBlocks(i)+"; it must match exactly, white space and indentation included")
		case n > 1:
			return nil, srAt(Ambiguous, i, b, fmt.Sprintf("the SEARCH text occurs %d times in the document as it stands%s; it must occur exactly once: quote more lines around the change", n, afterBlocks(i)))
		}
		text = text[:at] + b.replace + text[at+len(b.search):]
		regions = shift(regions, region{at, at + len(b.search)}, len(b.replace))
	}
	if err := jsonError(text); err != nil {
		i := blockAt(regions, err.offset)
		f := whole(SearchReplace, EditedNotJSON, fmt.Sprintf("the document after the edits is not JSON: %s, at byte %d: %q", err.msg, err.offset, excerpt(text, err.offset)))
		if i >= 0 {
			f.Op, f.Text = i, blocks[i].text()
		}
		return nil, f
	}
	return []byte(text), nil
}

// afterBlocks says which text a block was matched against.
func afterBlocks(i int) string {
	if i == 0 {
		return ""
	}
	return fmt.Sprintf(" (after blocks 0 to %d)", i-1)
}

func srAt(kind string, i int, b srBlock, reason string) *Failure {
	return &Failure{Format: SearchReplace, Kind: kind, Op: i, Text: b.text(), Reason: oneLine(reason)}
}

// parseBlocks reads the blocks of raw, line by line; "\r\n" is read as
// "\n". A SEARCH marker opens a block, the divider splits it, the REPLACE
// marker closes it.
func parseBlocks(raw string) ([]srBlock, *Failure) {
	lines := strings.Split(strings.ReplaceAll(raw, "\r\n", "\n"), "\n")
	var out []srBlock
	for i := 0; i < len(lines); i++ {
		if marker(lines[i]) != SearchMarker {
			continue
		}
		if len(out) == MaxBlocks {
			return nil, whole(SearchReplace, NotFormat, fmt.Sprintf("more than %d blocks", MaxBlocks))
		}
		div, end := closing(lines, i+1)
		if end < 0 {
			return nil, &Failure{Format: SearchReplace, Kind: NotFormat, Op: len(out), Text: cut(fmt.Sprintf("%q", lines[i]), MaxText),
				Reason: fmt.Sprintf("block %d is not closed: a SEARCH marker must be followed by a line %q and then a line %q", len(out), DividerMarker, ReplaceMarker)}
		}
		b := srBlock{strings.Join(lines[i+1:div], "\n"), strings.Join(lines[div+1:end], "\n")}
		if b.search == "" {
			return nil, srAt(NotFormat, len(out), b, "the SEARCH part is empty: it must quote the text of the document to replace")
		}
		out = append(out, b)
		i = end
	}
	if len(out) == 0 {
		return nil, whole(SearchReplace, NoBlocks, fmt.Sprintf("the answer holds no block: each starts with a line %q", SearchMarker))
	}
	return out, nil
}

// closing returns the indexes of the divider and the REPLACE marker of the
// block whose SEARCH part starts at line from; end is -1 when either is
// missing or another SEARCH marker comes first.
func closing(lines []string, from int) (div, end int) {
	div = -1
	for j := from; j < len(lines); j++ {
		switch m := marker(lines[j]); {
		case m == SearchMarker:
			return -1, -1
		case m == DividerMarker && div < 0:
			div = j
		case m == ReplaceMarker && div >= 0:
			return div, j
		}
	}
	return -1, -1
}

// marker returns the marker line l is, or "".
func marker(l string) string {
	switch t := strings.TrimRight(l, " \t"); t {
	case SearchMarker, DividerMarker, ReplaceMarker:
		return t
	}
	return ""
}

// find returns where s first occurs in text and how many times it
// occurs: 0, 1, or, when it occurs at a second place (overlapping the
// first included, so "exactly once" means one place), its count of
// non-overlapping occurrences but at least 2. Two searches and a count:
// linear in the text, where counting every overlapping occurrence was
// O(len(text)·len(s)) (issue 45: a 2× longer SEARCH took 3.8× the time).
func find(text, s string) (at, n int) {
	at = strings.Index(text, s)
	if at < 0 {
		return -1, 0
	}
	if strings.Index(text[at+1:], s) < 0 {
		return at, 1
	}
	return at, max(2, strings.Count(text, s))
}

// region is a span of the text [start, end) that one block wrote.
type region struct{ start, end int }

// shift records that the text of [at.start, at.end) was replaced by n
// bytes: the regions after it move, those it overlaps are taken into it.
func shift(regions []region, at region, n int) []region {
	d := n - (at.end - at.start)
	out := regions[:0]
	for _, r := range regions {
		switch {
		case r.end <= at.start:
		case r.start >= at.end:
			r.start, r.end = r.start+d, r.end+d
		default:
			r = region{-1, -1} // overwritten by the new block
		}
		out = append(out, r)
	}
	return append(out, region{at.start, at.start + n})
}

// blockAt returns the block whose text holds offset, else the last block
// that wrote text before it, else -1.
func blockAt(regions []region, offset int) int {
	best, bestStart := -1, -1
	for i, r := range regions {
		if r.start < 0 {
			continue
		}
		if offset >= r.start && offset <= r.end {
			return i
		}
		if r.start <= offset && r.start > bestStart {
			best, bestStart = i, r.start
		}
	}
	return best
}

type syntaxError struct {
	offset int
	msg    string
}

// jsonError returns where text stops being one JSON value, or nil.
func jsonError(text string) *syntaxError {
	if json.Valid([]byte(text)) {
		return nil
	}
	var v json.RawMessage
	err := json.Unmarshal([]byte(text), &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &syntaxError{int(se.Offset), se.Error()}
	}
	return &syntaxError{len(text), "the text ends before the JSON value does"}
}

// excerpt is the text around offset, at most excerptLen bytes.
func excerpt(text string, offset int) string {
	from := max(0, min(offset, len(text))-excerptLen/2)
	for from > 0 && text[from]&0xC0 == 0x80 {
		from--
	}
	return cut(text[from:], excerptLen)
}

// answerSearchReplace writes the blocks that turn given into target as
// bend.Marshal writes it: one block per changed run of lines (a line diff),
// each SEARCH the changed lines with as few lines around them as make it
// occur once in the text as the blocks before left it.
func answerSearchReplace(given []byte, target *bend.Document, _ []*edit.Op) (string, error) {
	old, want := string(given), string(bend.Marshal(target))
	var b strings.Builder
	text := old
	for _, h := range hunks(old, want) {
		// The blocks before changed only text before h (or h's own lines,
		// unchanged, as context): h is moved by what they added.
		at := h.at + len(text) - len(old)
		search, replace, ok := context(text, at, h)
		if !ok {
			return "", fmt.Errorf("search-replace: no unique SEARCH for the change at byte %d", h.at)
		}
		fmt.Fprintf(&b, "%s\n%s\n%s\n%s\n%s\n", SearchMarker, search, DividerMarker, replace, ReplaceMarker)
		i := strings.Index(text, search)
		text = text[:i] + replace + text[i+len(search):]
	}
	if text != want {
		return "", errors.New("search-replace: the blocks do not make the target")
	}
	if b.Len() == 0 {
		// No change: no block is a failure (NoBlocks), so the answer that
		// changes nothing quotes one line and leaves it.
		return noChange(old)
	}
	return b.String(), nil
}

// noChange is a block that quotes the first line of text occurring once
// and replaces it by itself.
func noChange(text string) (string, error) {
	for l := range strings.Lines(text) {
		l = strings.TrimSuffix(l, "\n")
		if _, n := find(text, l); n == 1 {
			return srBlock{l, l}.String() + "\n", nil
		}
	}
	return "", errors.New("search-replace: no line occurs once")
}

// hunk is one changed run of lines: the lines old at byte at of the old
// text become new.
type hunk struct {
	at       int
	old, new string
}

// hunks is the line diff of old and want as changed runs, in order; each
// old and new is whole lines, each ending in "\n".
func hunks(old, want string) []hunk {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // the diff must not depend on the machine's speed
	a, b, lines := dmp.DiffLinesToRunes(old, want)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines)
	var out []hunk
	pos := 0
	var cur *hunk
	for _, d := range diffs {
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			cur = nil
			pos += len(d.Text)
			continue
		case diffmatchpatch.DiffDelete:
			if cur == nil {
				out = append(out, hunk{at: pos})
				cur = &out[len(out)-1]
			}
			cur.old += d.Text
			pos += len(d.Text)
		case diffmatchpatch.DiffInsert:
			if cur == nil {
				out = append(out, hunk{at: pos})
				cur = &out[len(out)-1]
			}
			cur.new += d.Text
		}
	}
	return out
}

// context returns the SEARCH and REPLACE of hunk h at byte at of text:
// the hunk's lines and the fewest whole lines around them (of the ways to
// take k lines before and after, the one with most before; up to
// maxContext lines, then whatever makes it unique) that make SEARCH occur
// once in text. The last line break is left out of both, as a block holds
// whole lines.
func context(text string, at int, h hunk) (search, replace string, ok bool) {
	before, after := lineStarts(text, at, maxContext), lineEnds(text, at+len(h.old), maxContext)
	try := func(start, end int) bool {
		s := text[start:end]
		// An empty REPLACE would leave the line break of a deleted line
		// behind: a block deleting lines quotes one it keeps.
		r := text[start:at] + h.new + text[at+len(h.old):end]
		if strings.TrimSpace(s) == "" || r == "" || !(end == len(text) || strings.HasSuffix(s, "\n")) {
			return false
		}
		if _, n := find(text, strings.TrimSuffix(s, "\n")); n != 1 {
			return false
		}
		search, replace = strings.TrimSuffix(s, "\n"), strings.TrimSuffix(r, "\n")
		return true
	}
	for k := 0; k <= 2*maxContext; k++ {
		for b := min(k, len(before)-1); b >= 0 && k-b < len(after); b-- {
			if try(before[b], after[k-b]) {
				return search, replace, true
			}
		}
	}
	if try(0, len(text)) {
		return search, replace, true
	}
	return "", "", false
}

// maxContext bounds the lines of context tried on each side before the
// whole text is quoted.
const maxContext = 24

// lineStarts returns at and the starts of up to n lines before it.
func lineStarts(text string, at, n int) []int {
	out := []int{at}
	for i := at; i > 0 && len(out) <= n; {
		i = strings.LastIndexByte(text[:i-1], '\n') + 1
		out = append(out, i)
	}
	return out
}

// lineEnds returns end and the ends of up to n lines after it.
func lineEnds(text string, end, n int) []int {
	out := []int{end}
	for i := end; i < len(text) && len(out) <= n; {
		if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
			i += j + 1
		} else {
			i = len(text)
		}
		out = append(out, i)
	}
	return out
}

// slipSearchReplace makes one of the slips of a text edit, in one block
// picked uniformly: the indentation of one SEARCH line off by one space
// (the block no longer matches), or one line of context that SEARCH quotes
// left out of REPLACE (the lazy edit that deletes what it did not mean
// to). It returns the answer unchanged and "" when there is no block.
func slipSearchReplace(answer string, r *rand.Rand) (string, string) {
	blocks, fail := parseBlocks(answer)
	if fail != nil {
		return answer, ""
	}
	i := r.IntN(len(blocks))
	b := &blocks[i]
	s := strings.Split(b.search, "\n")
	rl := strings.Split(b.replace, "\n")
	var what string
	if r.IntN(2) == 0 && len(s) > 1 && len(rl) > 1 && s[0] == rl[0] {
		b.replace = strings.Join(rl[1:], "\n")
		what = fmt.Sprintf("block %d: the context line %q left out of REPLACE", i, strings.TrimSpace(s[0]))
	} else {
		// SEARCH matches anywhere in a line, so a space less on its first
		// line would still match: that line gets one more.
		j := r.IntN(len(s))
		if j > 0 && strings.HasPrefix(s[j], " ") {
			s[j] = s[j][1:]
		} else {
			s[j] = " " + s[j]
		}
		b.search = strings.Join(s, "\n")
		what = fmt.Sprintf("block %d: SEARCH line %d indented by one space more or less", i, j)
	}
	var out strings.Builder
	for _, b := range blocks {
		fmt.Fprintf(&out, "%s\n", b)
	}
	return out.String(), what
}
