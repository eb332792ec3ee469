package task

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"bendscript.com/round-trip-harness/internal/regularfile"
)

// Message is one chat message of a prompt.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Prompts are the prompt templates: one system primer shared by every task,
// the document block, and one task template per class. Every request is
// system primer, then the document, then the task, so that the three tasks
// of one document share one cacheable prefix.
type Prompts struct {
	System   string
	Document string
	Class    map[string]string // A, B, C
	Hash     string            // sha256 over the system, document and class templates, hex
	// Formats holds the answer instruction of each answer format that has
	// one (package formats), by format name: prompts/format-<name>.txt. It
	// replaces the class B/C template's last paragraph. The whole-document
	// format has none. Hash does not cover these texts (FormatHash does),
	// so that the prompts of the document format hash as they always have.
	Formats map[string]string
	// Extra holds the templates of the classes beyond A, B and C (the
	// produce suite's P and R: prompts/class-p.txt, class-r.txt), by
	// class, and Projection the rules of the harness's text projection
	// (prompts/projection.txt) that their templates and the projection
	// format's instruction quote as {{projection}}. Like Formats, Hash
	// does not cover them (TaskHash does), so that the prompts of the
	// other suites hash as they always have.
	Extra      map[string]string
	Projection string
}

// FormatPrefix and FormatSuffix make the file name of an answer format's
// instruction: prompts/format-<name>.txt.
const (
	FormatPrefix = "format-"
	FormatSuffix = ".txt"
)

// MaxPromptSize bounds a prompt template file.
const MaxPromptSize = 1 << 20

// LoadPrompts reads prompts/system.txt, prompts/document.txt and
// prompts/class-{a,b,c}.txt from fsys, and every prompts/format-<name>.txt
// there is (a directory without them loads as before; NeedFormat says
// when a format a run uses has none).
func LoadPrompts(fsys fs.FS) (*Prompts, error) {
	read := func(name string) (string, error) {
		b, err := regularfile.ReadFS(fsys, "prompts/"+name, MaxPromptSize)
		if err != nil {
			return "", fmt.Errorf("prompt template: %w", err)
		}
		return string(b), nil
	}
	p := &Prompts{Class: map[string]string{}}
	h := sha256.New()
	for _, name := range []string{"system.txt", "document.txt", "class-a.txt", "class-b.txt", "class-c.txt"} {
		s, err := read(name)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "%s %d\n%s", name, len(s), s)
		switch name {
		case "system.txt":
			p.System = s
		case "document.txt":
			p.Document = s
		default:
			p.Class[strings.ToUpper(name[len("class-"):len("class-")+1])] = s
		}
	}
	p.Hash = hex.EncodeToString(h.Sum(nil))
	files, err := fs.Glob(fsys, "prompts/"+FormatPrefix+"*"+FormatSuffix)
	if err != nil {
		return nil, fmt.Errorf("prompt template: %w", err)
	}
	p.Formats = map[string]string{}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(path.Base(f), FormatPrefix), FormatSuffix)
		if p.Formats[name], err = read(path.Base(f)); err != nil {
			return nil, err
		}
	}
	return p, p.loadExtra(fsys, read)
}

// loadExtra reads the templates of the classes beyond A, B and C and the
// projection's rules, each when the directory has it.
func (p *Prompts) loadExtra(fsys fs.FS, read func(string) (string, error)) error {
	classes, err := fs.Glob(fsys, "prompts/class-?.txt")
	if err != nil {
		return fmt.Errorf("prompt template: %w", err)
	}
	p.Extra = map[string]string{}
	for _, f := range classes {
		c := strings.ToUpper(path.Base(f)[len("class-") : len("class-")+1])
		if _, base := p.Class[c]; base {
			continue
		}
		if p.Extra[c], err = read(path.Base(f)); err != nil {
			return err
		}
		p.Class[c] = p.Extra[c]
	}
	if _, err := fs.Stat(fsys, "prompts/projection.txt"); err == nil {
		p.Projection, err = read("projection.txt")
		return err
	}
	return nil
}

// TaskHash is the hash of the prompt t is rendered with, as its
// transcript records it: FormatHash of its format, and for a class of
// Extra or a prompt that quotes the projection's rules, sha256 over that,
// the class template and the rules.
func (p *Prompts) TaskHash(t *Task) string {
	h := p.FormatHash(t.Format)
	extra, isExtra := p.Extra[t.Class]
	if !isExtra && !strings.Contains(p.Formats[t.Format], ProjectionRules) {
		return h
	}
	return hashOf(fmt.Appendf(nil, "%s\nclass %s %d\n%s\nprojection %d\n%s", h, t.Class, len(extra), extra, len(p.Projection), p.Projection))
}

// ProjectionRules is where a template quotes the projection's rules.
const ProjectionRules = "{{projection}}"

// NeedFormat returns an error when the answer format name needs an
// instruction (its formats.Format.Prompt is not "") and the prompts hold
// none: the check a run makes for each format it uses, before any request.
func (p *Prompts) NeedFormat(name string) error {
	if _, ok := p.Formats[name]; !ok {
		return fmt.Errorf("prompt template: no prompts/%s%s for answer format %q", FormatPrefix+name, FormatSuffix, name)
	}
	return nil
}

// FormatHash returns the hash of the prompts a task of answer format name
// is rendered with: sha256 over Hash and the format's instruction, hex; Hash
// itself for "" and for a format without an instruction (the whole
// document), so that document prompts hash as before.
func (p *Prompts) FormatHash(name string) string {
	text, ok := p.Formats[name]
	if !ok {
		return p.Hash
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s%s%s %d\n%s", p.Hash, FormatPrefix, name, FormatSuffix, len(text), text)
	return hex.EncodeToString(h.Sum(nil))
}

// Parts returns the prompt of t in its three parts: the system primer, the
// document block, and the task (which begins with the blank line that
// separates it from the document). A class B/C task whose Format has an
// instruction (Formats) asks for that format: the instruction replaces the
// template's last paragraph; any other task renders as the template says. The user message is document + task, so
// the system primer and the document are a prefix shared byte for byte by
// the three tasks of one document: the part a provider can cache.
func (p *Prompts) Parts(t *Task) (system, document, task string) {
	doc := strings.ReplaceAll(p.Document, "{{document}}", strings.TrimRight(string(t.Source.Bytes), "\n"))
	body := strings.NewReplacer("{{task_id}}", cmp.Or(t.Base, t.ID), "{{instruction}}", t.Text()).Replace(p.Class[t.Class])
	body = strings.TrimRight(body, "\n")
	if text, ok := p.Formats[t.Format]; ok && t.Class != ClassA {
		body = withLastParagraph(body, strings.TrimRight(text, "\n"))
	}
	body = strings.ReplaceAll(body, ProjectionRules, strings.TrimRight(p.Projection, "\n"))
	return strings.TrimRight(p.System, "\n"), strings.TrimRight(doc, "\n"), "\n\n" + body
}

// withLastParagraph returns body with the text after its last blank line
// (its last paragraph, the class template's answer instruction) replaced
// by text; a body of one paragraph gets text as a paragraph of its own.
func withLastParagraph(body, text string) string {
	i := strings.LastIndex(body, "\n\n")
	if i < 0 {
		return body + "\n\n" + text
	}
	return body[:i+len("\n\n")] + text
}
