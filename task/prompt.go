package task

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"
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
	Hash     string            // sha256 over all templates, hex
}

// LoadPrompts reads prompts/system.txt, prompts/document.txt and
// prompts/class-{a,b,c}.txt from fsys.
func LoadPrompts(fsys fs.FS) (*Prompts, error) {
	read := func(name string) (string, error) {
		b, err := fs.ReadFile(fsys, "prompts/"+name)
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
	return p, nil
}

// Render returns the messages for t: the system primer, and one user message
// holding the document followed by the task.
func (p *Prompts) Render(t *Task) []Message {
	system, doc, body := p.Parts(t)
	return []Message{
		{Role: "system", Content: system},
		{Role: "user", Content: doc + body},
	}
}

// Parts returns the prompt of t in its three parts: the system primer, the
// document block, and the task (which begins with the blank line that
// separates it from the document). The user message is document + task, so
// the system primer and the document are a prefix shared byte for byte by
// the three tasks of one document: the part a provider can cache.
func (p *Prompts) Parts(t *Task) (system, document, task string) {
	doc := strings.ReplaceAll(p.Document, "{{document}}", strings.TrimRight(string(t.Source.Bytes), "\n"))
	body := strings.NewReplacer("{{task_id}}", t.ID, "{{instruction}}", t.Text()).Replace(p.Class[t.Class])
	return strings.TrimRight(p.System, "\n"), strings.TrimRight(doc, "\n"), "\n\n" + strings.TrimRight(body, "\n")
}
