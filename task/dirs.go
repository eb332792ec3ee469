package task

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
)

// The default data directories: when the one of these names does not
// exist, the embedded copy stands in for it.
const (
	DefaultCorpusDir = "corpus"
	DefaultTaskDir   = "instructions"
)

// Dirs are the corpus and task directories opened as file systems, with
// the names to print for them ("(embedded)" for the embedded copies).
type Dirs struct {
	Corpus, Tasks         fs.FS
	CorpusName, TasksName string
}

// OpenDirs opens the corpus and task directories (see dirFS).
func OpenDirs(corpusDir, taskDir string) (Dirs, error) {
	var d Dirs
	var err error
	if d.Corpus, d.CorpusName, err = dirFS(corpusDir, DefaultCorpusDir, corpus.FS); err != nil {
		return d, err
	}
	d.Tasks, d.TasksName, err = dirFS(taskDir, DefaultTaskDir, instructions.FS)
	return d, err
}

// dirFS returns the directory dir as a file system; the name says which.
// The embedded copy stands in only for "" and for the default name def
// (the flags' defaults, so a run outside the repository uses the embedded
// corpus): any other directory that is not one is an error, never a
// silent fallback, or a user would believe their corpus was tested.
func dirFS(dir, def string, embedded fs.FS) (fs.FS, string, error) {
	if dir == "" {
		return embedded, "(embedded)", nil
	}
	st, err := os.Stat(dir)
	switch {
	case err == nil && st.IsDir():
		return os.DirFS(dir), dir, nil
	case dir == def && errors.Is(err, fs.ErrNotExist):
		return embedded, "(embedded)", nil
	case err == nil:
		err = errors.New("not a directory")
	}
	return nil, "", fmt.Errorf("%s: %v (the embedded data stands in only for ./%s)", dir, err, def)
}

// CheckDirs loads the corpus, tasks, pools and prompts of two directories
// as harness corpus check does: every problem is returned, none stops the
// check (Load, Check, WithPool, CheckPool, LoadPrompts); only a directory
// that cannot be opened is an error.
func CheckDirs(corpusDir, taskDir string) (*Set, Dirs, []Problem, error) {
	d, err := OpenDirs(corpusDir, taskDir)
	if err != nil {
		return nil, d, nil, err
	}
	set, probs := Load(d.Corpus, d.Tasks)
	probs = append(probs, Check(set)...)
	probs = append(probs, WithPool(set, d.Tasks)...)
	probs = append(probs, CheckPool(set)...)
	if _, err := LoadPrompts(d.Tasks); err != nil {
		probs = append(probs, Problem{File: d.TasksName, Msg: err.Error()})
	}
	return set, d, probs, nil
}

// LoadAll loads the corpus, the tasks and the prompts of two directories
// (LoadDirs, LoadPrompts); every problem is an error.
func LoadAll(corpusDir, taskDir string) (*Set, *Prompts, error) {
	set, dirs, err := LoadDirs(corpusDir, taskDir)
	if err != nil {
		return nil, nil, err
	}
	prompts, err := LoadPrompts(dirs.Tasks)
	return set, prompts, err
}

// LoadDirs loads the corpus and tasks of two directories (OpenDirs);
// every problem is an error. The prompts are not loaded: a task directory
// need not hold them (the size ladder's does not).
func LoadDirs(corpusDir, taskDir string) (*Set, Dirs, error) {
	d, err := OpenDirs(corpusDir, taskDir)
	if err != nil {
		return nil, d, err
	}
	set, probs := Load(d.Corpus, d.Tasks)
	if len(probs) > 0 {
		lines := make([]string, len(probs))
		for i, p := range probs {
			lines[i] = p.String()
		}
		return nil, d, fmt.Errorf("the corpus or tasks have problems (run harness corpus check):\n%s", strings.Join(lines, "\n"))
	}
	return set, d, nil
}
