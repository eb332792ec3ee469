// Package atomicfile writes a file so that no reader ever sees a part of
// it: into a temporary file beside it, renamed over it when whole. A
// killed process leaves at most a hidden temporary file naming the file it
// was on its way to (TempPrefix), which RemoveOrphans clears. Transcripts,
// manifests, seals and reports are all written this way.
package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// TempPrefix is the name prefix of the temporary files Write writes
// on the way to name: hidden, and naming the file they become, so that an
// orphan left by a killed process can be told apart and removed
// (RemoveOrphans).
func TempPrefix(name string) string { return ".tmp-" + filepath.Base(name) + "-" }

// RemoveOrphans removes below dir the temporary files that a killed
// process left on the way to a file (TempPrefix); names, when given,
// limits it to the orphans of those files in dir alone. The caller must be
// the only writer of those files (it holds the run's lock).
func RemoveOrphans(dir string, names ...string) error {
	if len(names) > 0 {
		for _, n := range names {
			orphans, _ := filepath.Glob(filepath.Join(dir, TempPrefix(n)+"*"))
			for _, o := range orphans {
				if err := os.Remove(o); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
		}
		return nil
	}
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), ".tmp-") {
			return err
		}
		return os.Remove(p)
	})
}

// WriteFile writes data to a temporary file in the same directory and
// renames it over name, so that readers never see a partial file. The file
// is made 0644 (less the umask).
func WriteFile(name string, data []byte) error {
	return Write(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write is WriteFile for content that write produces as it
// goes (a large report), so that it need not be held in memory first.
func Write(name string, write func(io.Writer) error) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, TempPrefix(name)+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	// No fsync: the rename already guarantees that a killed process leaves
	// no partial file, and a sync per transcript cost a fifth of the wall
	// time of a fast run (BenchmarkFanOut).
	err = write(f)
	if err == nil {
		// CreateTemp makes the file 0600; archives and reports are build
		// outputs that others read, like any file the umask allows.
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
