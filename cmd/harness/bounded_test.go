package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestHugeFileRejectedUnread: a 2.5 GB file (sparse, so the test costs no
// disk) is refused by validate, id and score by its size, without reading
// it: the command allocates far less than 50 MB and names the file, the
// limit and §3.
func TestHugeFileRejectedUnread(t *testing.T) {
	// Not parallel: the allocation it bounds is the whole process's.
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.bend.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2500 << 20); err != nil {
		t.Skipf("cannot make a sparse file here: %v", err)
	}
	f.Close()
	task := writeFile(t, dir, "01-b.json", string(mustRead(t, "../../instructions/01-b.json")))
	for _, args := range [][]string{
		{"validate", huge},
		{"id", huge},
		{"score", "--task", task, "--output", huge},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		out, errs, code := runCLI(t, args...)
		runtime.ReadMemStats(&after)
		if code == 0 || !strings.Contains(out+errs, "huge.bend.json: /: file is 2621440000 bytes, over the 16777216-byte limit (§3)") {
			t.Errorf("%s: exit %d, output %q %q; want a refusal naming the file, its size and the limit", args[0], code, out, errs)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 50<<20 {
			t.Errorf("%s allocated %d MB to refuse the file; want under 50", args[0], alloc>>20)
		}
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
