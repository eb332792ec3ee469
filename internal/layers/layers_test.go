package layers

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestNoImportRunsUp reads the imports of every non-test Go file in the
// module and fails for each one that names a package of the module on the
// importer's floor or above it, and for each package that is on no floor
// (or on two). Test files may import upward (a report test runs the
// pipeline through pipelinetest): the graph the binary is built from is
// what must stay layered.
func TestNoImportRunsUp(t *testing.T) {
	root, module := moduleRoot(t)
	floor := map[string]int{}
	for i, f := range Floors {
		for _, p := range f.Packages {
			if _, twice := floor[p]; twice {
				t.Errorf("%s is on two floors of the table", p)
			}
			floor[p] = i
		}
	}
	imports := packageImports(t, root, module)
	if len(imports) < 10 {
		t.Fatalf("found %d packages under %s: the check no longer sees the module", len(imports), root)
	}
	for _, v := range violations(floor, imports) {
		t.Error(v)
	}
	for p := range floor {
		if _, ok := imports[p]; !ok {
			t.Errorf("the table lists %s, which has no Go files: take it out of Floors", p)
		}
	}
	edges := 0
	for _, im := range imports {
		edges += len(im)
	}
	t.Logf("%d packages, %d imports within the module", len(imports), edges)
}

// TestRenderPrintsTextOnly: render is the text writers, and every chart
// is the viewer's (issue 54: render/formats.go drew the format charts, the
// one import of viewer/chart below the viewer). The floors allow render to
// import the chart geometry, a leaf; this keeps it from doing so, and the
// schema (report) from importing a suite or a task again.
func TestRenderPrintsTextOnly(t *testing.T) {
	root, module := moduleRoot(t)
	imports := packageImports(t, root, module)
	for _, c := range tabletest.Cases(t, []struct{ pkg, not, reason string }{
		{"render", "viewer/chart", "render prints text only; the viewer draws every chart"},
		{"report", "suites", "the schema stands below the suites (a ladder change must not rebuild it)"},
		{"report", "task", "the schema writes the classes itself (report.Classes)"},
	}) {
		if imports[c.pkg] == nil {
			t.Fatalf("no package %s in the module", c.pkg)
		}
		if imports[c.pkg][c.not] {
			t.Errorf("%s imports %s: %s", c.pkg, c.not, c.reason)
		}
	}
}

// TestViolationsSeesAnUpwardImport holds the rule itself to account: an
// import of a higher floor, one of the same floor and a package on no
// floor are each reported, and a downward import is not.
func TestViolationsSeesAnUpwardImport(t *testing.T) {
	floor := map[string]int{"bend": 0, "edit": 1, "projection": 1, "report": 2}
	got := violations(floor, map[string]map[string]bool{
		"bend":       {"report": true},
		"edit":       {"bend": true, "projection": true},
		"report":     {"bend": true, "edit": true},
		"newpackage": {"bend": true},
	})
	want := []string{
		`bend (floor 0) imports report (floor 2): an import up the graph`,
		`edit (floor 1) imports projection (floor 1): an import within one floor`,
		`newpackage is on no floor of internal/layers.Floors: give it one`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// violations lists, sorted, each package on no floor and each import of
// a package that is not on a floor below the importer's.
func violations(floor map[string]int, imports map[string]map[string]bool) []string {
	var out []string
	for pkg, ims := range imports {
		f, ok := floor[pkg]
		if !ok {
			out = append(out, fmt.Sprintf("%s is on no floor of internal/layers.Floors: give it one", pkg))
			continue
		}
		for im := range ims {
			g, ok := floor[im]
			switch {
			case !ok:
				// reported as a package on no floor
			case g > f:
				out = append(out, fmt.Sprintf("%s (floor %d) imports %s (floor %d): an import up the graph", pkg, f, im, g))
			case g == f:
				out = append(out, fmt.Sprintf("%s (floor %d) imports %s (floor %d): an import within one floor", pkg, f, im, g))
			}
		}
	}
	sort.Strings(out)
	return out
}

// packageImports maps each package of the module (by path relative to
// root) to the module's packages its non-test files import.
func packageImports(t *testing.T, root, module string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		if out[pkg] == nil {
			out[pkg] = map[string]bool{}
		}
		for _, im := range f.Imports {
			p, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				return err
			}
			if rest, ok := strings.CutPrefix(p, module+"/"); ok {
				out[pkg][rest] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// moduleRoot is the nearest directory above the test's own that holds
// go.mod, and the module path it declares.
func moduleRoot(t *testing.T) (string, string) {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return dir, strings.TrimSpace(m)
				}
			}
			t.Fatalf("%s/go.mod names no module", dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// TestREADMENamesEveryPackage: the README's Layout table is where a
// newcomer looks for a package, so every package of the module is named
// there in backquotes (`suites/delegate/`), except the leaves under an
// internal/ folder, which the internal row describes as one (issue 47: the
// delegate suite's builder had no row).
func TestREADMENamesEveryPackage(t *testing.T) {
	root, module := moduleRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "## Layout")
	if start < 0 {
		t.Fatal("README.md has no \"## Layout\" section")
	}
	layout := readme[start:]
	if end := strings.Index(layout[len("## Layout"):], "\n## "); end >= 0 {
		layout = layout[:len("## Layout")+end]
	}
	for p := range packageImports(t, root, module) {
		if strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal/") {
			continue
		}
		if !strings.Contains(layout, "`"+p+"/`") && !strings.Contains(layout, "`"+p+"`") {
			t.Errorf("README.md's Layout does not name %s (as `%s/`)", p, p)
		}
	}
}
