package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func TestDefaultPromptIsTheTemplateFile(t *testing.T) {
	b, err := os.ReadFile("prompts/judge-v2.txt")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	p := DefaultPrompt()
	if p.Hash != hex.EncodeToString(sum[:]) || p.Version != PromptVersion || p.Template != string(b) {
		t.Errorf("DefaultPrompt = %s %s; want version %s and the sha256 of prompts/judge-v2.txt", p.Version, p.Hash, PromptVersion)
	}
}

func TestBuildRequest(t *testing.T) {
	tk := taskA(t, "14-a")
	answer := "```json\n{\"answer\": \"38 spaces {{document}}\", \"evidence\": [\"blk-c204.spn-08\", \"bend:#blk-c20a\"]}\n```\n"
	req := BuildRequest(tk, answer, "j/judge", 42, nil)

	if req.Model != "j/judge" || req.Temperature == nil || *req.Temperature != 0 || req.Seed == nil || *req.Seed != 42 || req.TaskID != "14-a" {
		t.Errorf("request model %q temperature %v seed %v task %q; want j/judge, 0, 42, 14-a", req.Model, req.Temperature, req.Seed, req.TaskID)
	}
	if string(req.JSONSchema) != string(VoteSchema) || req.SchemaName != SchemaName {
		t.Error("the request does not ask for structured output with VoteSchema")
	}
	if len(req.Messages) != 3 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" || req.Messages[2].Role != "user" {
		t.Fatalf("messages %+v; want system, user, user", req.Messages)
	}
	if got := req.Messages[2].Content; got != answer {
		t.Errorf("last message = %q; want the answer verbatim, placeholders and white space untouched", got)
	}
	user := req.Messages[1].Content
	for _, want := range []string{
		strings.TrimRight(string(tk.Source.Bytes), "\n"),
		tk.Text(),
		"cites these evidence ids: blk-c204.spn-08, bend:#blk-c20a",
	} {
		if !strings.Contains(user, want) {
			t.Errorf("the user message lacks %.60q", want)
		}
	}
	if strings.Contains(user, "{{") || strings.Contains(req.Messages[0].Content, "{{") {
		t.Error("a placeholder was left unexpanded")
	}
}

func TestBuildRequestEvidenceList(t *testing.T) {
	tk := taskA(t, "01-a")
	tests := []struct {
		name, answer, want, reason string
	}{
		{"none", `{"answer": "41", "evidence": []}`, "cites these evidence ids: none\n", "an empty list is said, not left blank"},
		{"unreadable", "41 species", "cites these evidence ids: none could be read (", "the judge is told the answer could not be read, and why"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			if got := BuildRequest(tk, tt.answer, "j", 0, nil).Messages[1].Content; !strings.Contains(got, tt.want) {
				t.Errorf("user message lacks %q (%s)", tt.want, tt.reason)
			}
		})
	}
}

func TestNewPromptRejects(t *testing.T) {
	tests := []struct {
		name, template, reason string
	}{
		{"text before a section", "hello\n=== user ===\n{{answer}}\n", "every line must belong to a message"},
		{"answer not last", "=== system ===\nx\n=== user ===\n{{answer}}\n=== user ===\nJudge it.\n", "the offline judge reads the answer from the last message"},
		{"answer shares its message", "=== system ===\nx\n=== user ===\nAnswer: {{answer}}\n", "the answer must be a message of its own"},
		{"answer only", "=== user ===\n{{answer}}\n", "a judge needs instructions and the document"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewPrompt("test", tt.template); err == nil {
				t.Errorf("NewPrompt accepted the template (%s)", tt.reason)
			}
		})
	}
}
