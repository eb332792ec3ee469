package formats

import (
	"math/rand/v2"
	"regexp"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/projection"
)

// Projection is the answer format of the whole document written in the
// harness's text projection (package projection, docs/projection.md):
// the produce suite's class R answers in it, and any class B/C task may.
const Projection = projection.Format

// applyProjection parses a projection answer (one Markdown fence around
// it is tolerated) into the document it describes; a text that is not the
// projection fails at its line, with the parser's rule.
func applyProjection(_ []byte, raw string) ([]byte, *Failure) {
	text := unfence(raw)
	d, err := projection.Parse(text)
	if err != nil {
		f := whole(Projection, NotFormat, err.Error())
		if pe, ok := err.(*projection.Error); ok {
			lines := strings.Split(text, "\n")
			f = &Failure{Format: Projection, Kind: NotFormat, Op: pe.Line, Reason: oneLine(pe.Msg)}
			if pe.Line >= 1 && pe.Line <= len(lines) {
				f.Text = cut(lines[pe.Line-1], MaxText)
			}
		}
		return nil, f
	}
	return bend.Marshal(d), nil
}

// fence is a Markdown fence line around a whole answer.
var fence = regexp.MustCompile("^(```+|~~~+)[A-Za-z]*$")

// unfence returns the projection an answer holds: the answer itself,
// less surrounding white space, when it starts with the metadata block;
// else what one Markdown fence holds whose first line starts it (prose
// around that fence is left out, as around a fenced JSON answer).
func unfence(raw string) string {
	t := strings.TrimSpace(raw)
	if strings.HasPrefix(t, "---\n") {
		return t + "\n"
	}
	lines := strings.Split(t, "\n")
	for i := 0; i+1 < len(lines); i++ {
		m := fence.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil || lines[i+1] != "---" {
			continue
		}
		for j := len(lines) - 1; j > i+1; j-- {
			if strings.TrimSpace(lines[j]) == m[1] {
				return strings.Join(lines[i+1:j], "\n") + "\n"
			}
		}
	}
	return t + "\n"
}

// answerProjection writes target's projection.
func answerProjection(_ []byte, target *bend.Document, _ []*edit.Op) (string, error) {
	return projection.Render(target)
}

// The slips of a model writing the projection, each a regular expression
// on its lines and what it does to a match: the typical losses of the
// render direction.
var projectionSlips = []struct {
	what string
	re   *regexp.Regexp
	repl string
}{
	{"a link's predicate left out (a typed link written as a plain one)", regexp.MustCompile(`(\]\([^)\s]+\)\{#[A-Za-z0-9_-]+) predicate=[^ }]+`), "$1"},
	{"two adjacent spans merged (the second's id lost)", regexp.MustCompile(`([^\\])\]\{#[A-Za-z0-9_-]+\}\[`), "$1"},
	{"an edge's meta attribute left out", regexp.MustCompile(`(?m)^(- \S+ \S+ \S+) \{meta=.*\}$`), "$1"},
	{"an edge list entry dropped", regexp.MustCompile(`(?m)^- \S+ \S+ \S+.*\n`), ""},
}

// slipProjection makes one of projectionSlips at one of its matches, the
// slip and the match drawn from r.
func slipProjection(answer string, r *rand.Rand) (string, string) {
	for _, k := range r.Perm(len(projectionSlips)) {
		s := projectionSlips[k]
		locs := s.re.FindAllStringSubmatchIndex(answer, -1)
		if k == 3 && !strings.Contains(answer, projection.EdgesLine) {
			locs = nil
		}
		if len(locs) == 0 {
			continue
		}
		loc := locs[r.IntN(len(locs))]
		out := s.re.ExpandString(nil, s.repl, answer, loc)
		return answer[:loc[0]] + string(out) + answer[loc[1]:], s.what
	}
	return answer, ""
}
