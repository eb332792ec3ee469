package task

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
)

// NaturalDir is the directory of the task files, inside the task directory,
// that hold the natural tasks (instructions/FORMAT.md).
const NaturalDir = "natural"

// LoadNatural reads every natural/NN-x.json of taskFS: the class B or C task
// NN-x of s, asked for as an editor would ask, without dictating ids. A
// natural task has the forward task's id, class and document; its gold edit
// names new blocks and spans by placeholders, its Names are their default
// names (edit.DefaultNames), its Expected document is the gold edit applied
// with those names, and Forward points to the forward task. Problems are
// reported as Load reports them, and a file with a problem that prevents its
// use is left out.
func LoadNatural(s *Set, taskFS fs.FS) ([]*Task, []Problem) {
	return loadDerived(s, taskFS, NaturalDir, "reword", true, func(fwd *Task) *Document { return fwd.Source })
}

// CheckNatural returns what is wrong with the natural tasks of s: a class B
// or C task without one; a quote that does not occur exactly once in the
// source document's text (sourceText) or is not a double-quoted phrase of
// the instruction; a double-quoted phrase that is neither a quote nor (part
// of) a text the gold edit writes, and a written text the instruction does
// not give; an instruction that contains a placeholder or the id of new
// content (the forward task's or a default name); a gold edit that does not
// name all new content by placeholders (edit.CheckPlaceholders); and a gold
// edit that, with each placeholder bound to the forward task's own new id,
// is not the forward gold edit or does not give the forward expected
// document byte for byte. (A gold edit that does not apply with its default
// names is reported by LoadNatural.)
func CheckNatural(s *Set) []Problem {
	nat := map[string]*Task{}
	for _, t := range s.Natural {
		nat[t.ID] = t
	}
	var probs []Problem
	for _, fwd := range s.Tasks {
		if fwd.Expected == nil {
			continue
		}
		file := path.Join("instructions", NaturalDir, fwd.ID+".json")
		t := nat[fwd.ID]
		if t == nil {
			probs = append(probs, Problem{file, fmt.Sprintf("missing or unusable natural task for task %s", fwd.ID)})
			continue
		}
		for _, msg := range checkNatural(t, fwd) {
			probs = append(probs, Problem{file, msg})
		}
	}
	return probs
}

// checkNatural returns the problems of one natural task t of forward task
// fwd, as messages.
func checkNatural(t, fwd *Task) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	checkPhrases(t, add)
	if strings.Contains(t.Instruction, "$new") {
		add("/instruction: contains a placeholder")
	}
	if err := edit.CheckPlaceholders(t.GoldEdit); err != nil {
		add("/gold_edit: %v", err)
	}
	names, err := edit.MatchNames(t.GoldEdit, fwd.GoldEdit)
	if err != nil {
		add("/gold_edit: not the gold edit of %s up to the ids of new content: %v", fwd.ID, err)
		return out
	}
	for _, id := range newIDs(names, t.Names) {
		if containsID(t.Instruction, id) {
			add("/instruction: dictates %s, the id of new content", id)
		}
	}
	bound, err := edit.Bind(t.GoldEdit, names)
	if err != nil {
		add("/gold_edit: with the ids of %s: %v", fwd.ID, err)
		return out
	}
	if got, want := opsJSON(bound), opsJSON(fwd.GoldEdit); got != want {
		add("/gold_edit: with the ids of %s it is %s, want its gold edit %s", fwd.ID, got, want)
	}
	exp, err := edit.Apply(t.Source.Doc, bound)
	switch {
	case err != nil:
		add("/gold_edit: with the ids of %s it does not apply: %v", fwd.ID, err)
	case !bytes.Equal(bend.Marshal(exp), bend.Marshal(fwd.Expected)):
		add("/gold_edit: with the ids of %s it does not give that task's expected document", fwd.ID)
	}
	return out
}

// checkPhrases checks a natural task's double-quoted phrases: each quote
// names its target's text exactly once in the document and is quoted in
// the instruction; every quoted phrase is a quote or a text the gold edit
// writes, and every text it writes is quoted.
func checkPhrases(t *Task, add func(format string, args ...any)) {
	texts := sourceText(t.Source.Doc)
	phrases, err := quotedPhrases(t.Instruction)
	if err != nil {
		add("/instruction: %v", err)
	}
	for i, q := range t.Quotes {
		if n := occurrences(texts, q); n != 1 {
			add("/quotes/%d: %q occurs %d times in the text of %s, want exactly once", i, q, n, t.DocumentName)
		}
		if !slices.Contains(phrases, q) {
			add("/quotes/%d: %q is not a double-quoted phrase of the instruction", i, q)
		}
	}
	written := writtenTexts(t.GoldEdit)
	for _, p := range phrases {
		if !slices.Contains(t.Quotes, p) && !slices.ContainsFunc(written, func(w string) bool { return strings.Contains(w, p) }) {
			add("/instruction: the phrase %q is neither one of quotes nor a text the gold edit writes", p)
		}
	}
	for _, w := range written {
		if !slices.Contains(phrases, w) {
			add("/instruction: does not give the text %q that the gold edit writes, as a double-quoted phrase", w)
		}
	}
}

// sourceText returns the text a quote is looked up in: the title, the text
// of every block that has spans (its spans' texts concatenated in order,
// tombstones contributing nothing, §2.3), and the text of every code block.
func sourceText(d *bend.Document) []string {
	var out []string
	if d.Title != nil {
		out = append(out, *d.Title)
	}
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		if b.HasText() {
			out = append(out, b.PlainText())
		}
		return true
	})
	return out
}

// occurrences counts the places q starts in texts, overlapping ones
// included, so that "exactly once" means one place.
func occurrences(texts []string, q string) int {
	if q == "" {
		return 0
	}
	n := 0
	for _, t := range texts {
		for i := 0; ; {
			j := strings.Index(t[i:], q)
			if j < 0 {
				break
			}
			n++
			i += j + 1
		}
	}
	return n
}

// quotedPhrases returns the double-quoted phrases of an instruction, outside
// `backtick` spans (which hold literal values: mark names, predicates,
// targets, meta). A backslash escapes the next character, so a phrase may
// be a JSON string literal (code text with \n, \t, \"); a phrase that is one
// is returned decoded.
func quotedPhrases(instr string) ([]string, error) {
	var out []string
	parts := strings.Split(instr, "`")
	if len(parts)%2 == 0 {
		return nil, fmt.Errorf("unbalanced backtick")
	}
	for i := 0; i < len(parts); i += 2 {
		p := parts[i]
		for {
			start := strings.IndexByte(p, '"')
			if start < 0 {
				break
			}
			end := start + 1
			for end < len(p) && p[end] != '"' {
				if p[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(p) {
				return out, fmt.Errorf("unterminated double quote")
			}
			raw := p[start+1 : end]
			var dec string
			if strings.Contains(raw, `\`) && json.Unmarshal([]byte(`"`+raw+`"`), &dec) == nil {
				raw = dec
			}
			out = append(out, raw)
			p = p[end+1:]
		}
	}
	return out, nil
}

// writtenTexts returns every text the gold edit writes: set_text and
// set_code_text texts, titles, and the text of every new span (alone or in
// a new block) (edit.Op.Texts).
func writtenTexts(ops []*edit.Op) []string {
	var out []string
	for _, op := range ops {
		out = append(out, op.Texts()...)
	}
	return out
}

// newIDs returns the ids given to new content by the forward task and by
// the default names, sorted.
func newIDs(maps ...map[string]string) []string {
	var out []string
	for _, m := range maps {
		for _, id := range m {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	sort.Strings(out)
	return out
}

// containsID reports whether id occurs in s as a whole id: not next to a
// letter, digit, '-' or '_', so that spn-02 is not found in spn-02a.
func containsID(s, id string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], id)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(id)
		if (at == 0 || !isIDByte(s[at-1])) && (end == len(s) || !isIDByte(s[end])) {
			return true
		}
		i = at + 1
	}
}

func isIDByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
