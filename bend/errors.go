package bend

import (
	"fmt"
	"strings"
)

// An Error is one problem found in a document: where it is (file and JSON
// pointer), what is wrong, and the spec section that states the rule.
// It prints as "file: /json/pointer: message (§x.y)".
type Error struct {
	File    string // the file name, when known
	Pointer string // RFC 6901 pointer into the document; "" is the whole document
	Msg     string
	Section string // spec section, e.g. "2.2"
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	ptr := e.Pointer
	if ptr == "" {
		ptr = "/"
	}
	b.WriteString(ptr)
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Section != "" {
		fmt.Fprintf(&b, " (§%s)", e.Section)
	}
	return b.String()
}

// Errors is a list of problems, all found in one pass.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// WithFile returns the errors with File set to name.
func (es Errors) WithFile(name string) Errors {
	out := make(Errors, len(es))
	for i, e := range es {
		c := *e
		c.File = name
		out[i] = &c
	}
	return out
}
