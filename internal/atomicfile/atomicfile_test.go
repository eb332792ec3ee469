package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileMode: written files are readable by others (0644, as
// build outputs are), not the 0600 of a temporary file.
func TestWriteFileMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.json")
	if err := WriteFile(p, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&0o044 == 0 {
		t.Errorf("mode %v: others cannot read the file", st.Mode().Perm())
	}
}
