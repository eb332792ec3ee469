package task

import (
	"fmt"
	"slices"
	"strings"
)

// FormatID is the id of task id's variant in answer format f: the id
// itself for the whole document (""), else id and format joined by a dot
// ("03-b.json-patch"). It names the variant's transcripts, so a run keys
// every (task, format) job apart; nothing reads a format back out of an id
// (Task.Format says it).
func FormatID(id, f string) string {
	if f == "" {
		return id
	}
	return id + "." + f
}

// WithFormats returns the set whose class B and C tasks are asked in each
// of names (package formats' names, the whole document, as §8 asks,
// given as ""): one variant per task and format, marked with its
// Format, its id FormatID, its hash that of the task and the format. Class
// A tasks are asked once, as they are. A whole-document task is kept only
// when names hold the document. No names, or the document alone,
// return s itself.
func (s *Set) WithFormats(names []string) *Set {
	document := len(names) == 0 || slices.ContainsFunc(names, isDocument)
	if document && len(names) <= 1 {
		return s
	}
	out := *s
	out.Tasks = nil
	for _, t := range s.Tasks {
		if t.Class == ClassA {
			out.Tasks = append(out.Tasks, t)
			continue
		}
		for _, f := range names {
			if isDocument(f) {
				out.Tasks = append(out.Tasks, t)
				continue
			}
			out.Tasks = append(out.Tasks, t.InFormat(f))
		}
	}
	slices.SortFunc(out.Tasks, func(a, b *Task) int { return strings.Compare(a.ID, b.ID) })
	return &out
}

func isDocument(f string) bool { return f == "" }

// HashFor is the hash of the prompts of a run in answer formats: Hash for
// the whole document alone (no formats), else sha256 over each format's
// FormatHash, so that a resume or rescore sees a changed format text.
func (p *Prompts) HashFor(formats []string) string {
	if len(formats) == 0 {
		return p.Hash
	}
	var b []byte
	for _, f := range formats {
		b = fmt.Appendf(b, "%s %s\n", f, p.FormatHash(f))
	}
	return hashOf(b)
}

// CheckFormats returns an error for the first answer format of tasks whose
// instruction the prompts lack (NeedFormat).
func (p *Prompts) CheckFormats(tasks []*Task) error {
	seen := map[string]bool{}
	for _, t := range tasks {
		if t.Format != "" && !seen[t.Format] {
			seen[t.Format] = true
			if err := p.NeedFormat(t.Format); err != nil {
				return err
			}
		}
	}
	return nil
}

// InFormat is t asked in answer format f: its id FormatID, its Format
// and Lane f, its Base t's id, its hash that of t and f.
func (t *Task) InFormat(f string) *Task {
	v := *t
	v.ID, v.Format, v.Base, v.Lane = FormatID(t.ID, f), f, t.ID, f
	v.Hash = hashOf(fmt.Appendf(nil, "%s\x00%s", t.Hash, f))
	return &v
}
