package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusCheckPool: corpus check proves the shipped pool of reversible
// edits, and a copy with one pair whose backward edit restores another text
// fails with exit 1 and a line naming the file, the pointer and the pair.
func TestCorpusCheckPool(t *testing.T) {
	t.Parallel()
	out, errs, code := runCLI(t, "corpus", "check", "--corpus", "../../corpus", "--instructions", "../../instructions")
	if code != 0 || !strings.Contains(out, " pool pairs return their documents byte for byte") {
		t.Fatalf("corpus check: exit %d\n%s%s", code, out, errs)
	}
	dir := t.TempDir()
	copyDir(t, "../../instructions", filepath.Join(dir, "instructions"))
	p := filepath.Join(dir, "instructions", "pool", "03.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// 03-p04 renames the heading and back; the backward edit's text is the
	// last occurrence of the original heading in the file.
	old := `"text": "Post-mortem: checkout API outage, 3 March 2026"`
	i := strings.LastIndex(string(b), old)
	if i < 0 {
		t.Fatalf("%s has no %s", p, old)
	}
	broken := string(b[:i]) + `"text": "Post-mortem: checkout API outage, 4 March 2026"` + string(b[i+len(old):])
	if err := os.WriteFile(p, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI(t, "corpus", "check", "--corpus", "../../corpus", "--instructions", filepath.Join(dir, "instructions"))
	want := "instructions/pool/03.json: /pairs/3/backward/gold_edit: pair 03-p04 backward: forward then backward does not give the source back byte for byte"
	if code != 1 || !strings.Contains(out, want) {
		t.Errorf("broken pair: exit %d, want 1 and %q in:\n%s", code, want, out)
	}
}
