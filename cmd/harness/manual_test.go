package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"bendscript.com/round-trip-harness/suites"
)

// manual is the command's documentation, doc.go's comment, as go doc
// reads it (code blocks keep their tab).
func manual(t *testing.T) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("doc.go has no package comment: the manual is missing")
	}
	return f.Doc.Text()
}

// TestHelpAgreesWithManual: the commands of `harness help` are those of
// the manual's CLI reference (doc.go), the flags of `harness run -h` those
// of its run table, and both name every suite. Issue 23: run -h left
// natural out of --suite and misdescribed all, and nothing compared the
// two; issue 47 moved the manual from the README into doc.go.
func TestHelpAgreesWithManual(t *testing.T) {
	t.Parallel()
	readme := manual(t)

	help, _, _ := runCLI(t, "help")
	var commands []string
	for _, l := range strings.Split(help, "\n") {
		if f := strings.Fields(l); strings.HasPrefix(l, "  ") && len(f) > 0 {
			commands = append(commands, f[0])
		}
	}
	ref := section(t, readme, "# CLI reference", "# harness run")
	var documented []string
	for _, l := range strings.Split(ref, "\n") {
		code, ok := strings.CutPrefix(l, "\t")
		if f := strings.Fields(code); ok && len(f) > 0 && !strings.HasPrefix(code, " ") && f[0] != "go" && !slices.Contains(documented, f[0]) {
			documented = append(documented, f[0])
		}
	}
	slices.Sort(commands)
	slices.Sort(documented)
	if !slices.Equal(commands, documented) {
		t.Errorf("harness help lists %v, the manual's CLI reference %v", commands, documented)
	}

	_, usage, _ := runCLI(t, "run", "-h")
	flagRe := regexp.MustCompile(`(?m)^  -([a-z-]+)`)
	var flags []string
	for _, m := range flagRe.FindAllStringSubmatch(usage, -1) {
		flags = append(flags, m[1])
	}
	table := section(t, readme, "# harness run", "# Determinism per model")
	var rows []string
	for _, l := range strings.Split(table, "\n") {
		if l = strings.TrimPrefix(l, "\t"); strings.HasPrefix(l, "| `--") {
			cell := strings.Split(l, "|")[1]
			for _, m := range regexp.MustCompile("`--([a-z-]+)").FindAllStringSubmatch(cell, -1) {
				rows = append(rows, m[1])
			}
		}
	}
	slices.Sort(flags)
	slices.Sort(rows)
	if !slices.Equal(flags, rows) {
		t.Errorf("harness run -h has the flags %v, the manual's run table %v", flags, rows)
	}
	suiteHelp := usage[strings.Index(usage, "  -suite"):]
	suiteHelp = suiteHelp[:strings.Index(suiteHelp[1:], "\n  -")+1]
	// A row goes on over lines of its own (wrapped to fit go doc's 100
	// columns) up to the next row.
	suiteRow := table[strings.Index(table, "| `--suite"):]
	suiteRow = strings.Join(strings.Fields(suiteRow[:strings.Index(suiteRow, "\n\t| ")]), " ")
	for _, s := range suites.Names() {
		if !strings.Contains(suiteHelp, s) || !strings.Contains(suiteRow, "`"+s+"`") {
			t.Errorf("suite %q is missing from run -h (%q) or the manual (%q)", s, suiteHelp, suiteRow)
		}
	}
	if !strings.Contains(suiteHelp, "all (gating, natural and relay") || !strings.Contains(suiteRow, "`all` (gating, natural and relay") {
		t.Errorf("run -h and the manual do not describe --suite all alike:\n%s\n%s", suiteHelp, suiteRow)
	}
}

// TestManualFitsGoDoc: issue 56: go doc ./cmd/harness printed flag lines
// of up to 562 characters (the run table's rows, the exit codes). Every
// line of the manual fits 100 columns as go doc prints it: a code line
// indented by 4.
func TestManualFitsGoDoc(t *testing.T) {
	t.Parallel()
	for _, l := range strings.Split(manual(t), "\n") {
		width := utf8.RuneCountInString(l)
		if code, ok := strings.CutPrefix(l, "\t"); ok {
			width = 4 + utf8.RuneCountInString(code)
		}
		if width > 100 {
			t.Errorf("a manual line %d columns wide in go doc, over 100: %q", width, l)
		}
	}
}

// section returns the text of s from the heading from to the heading to.
func section(t *testing.T, s, from, to string) string {
	t.Helper()
	i, j := strings.Index(s, from), strings.Index(s, to)
	if i < 0 || j < i {
		t.Fatalf("the manual has no section %q before %q", from, to)
	}
	return s[i:j]
}

// TestManualFlagsExist: every command line of the manual's code blocks
// that runs the harness ("harness CMD ..." or "go run ./cmd/harness CMD
// ...") names a command the binary has, and every --flag on it is one
// that command's -h lists: a flag renamed or removed fails here, not in a
// reader's terminal.
func TestManualFlagsExist(t *testing.T) {
	t.Parallel()
	usage := map[string]string{}
	flagsOf := func(cmd []string) string {
		key := strings.Join(cmd, " ")
		if u, ok := usage[key]; ok {
			return u
		}
		_, u, _ := runCLI(t, append(cmd, "-h")...)
		usage[key] = u
		return u
	}
	lines := 0
	for _, l := range strings.Split(manual(t), "\n") {
		code, ok := strings.CutPrefix(l, "\t")
		if !ok {
			continue
		}
		_, rest, found := strings.Cut(" "+code, " harness ")
		if !found {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 || strings.HasPrefix(f[0], "<") || strings.HasPrefix(f[0], "-") {
			continue
		}
		cmd := f[:1]
		if (f[0] == "corpus" || f[0] == "judge") && len(f) > 1 {
			cmd = f[:2]
		}
		u := flagsOf(cmd)
		if !strings.Contains(u, "Usage") && !strings.Contains(u, "usage") {
			t.Errorf("manual: %q: harness %s -h prints no usage: %q", code, strings.Join(cmd, " "), u)
			continue
		}
		lines++
		for _, m := range regexp.MustCompile(`(?:^|\s)--([a-z][a-z-]*)`).FindAllStringSubmatch(strings.Split(rest, "#")[0], -1) {
			if !regexp.MustCompile(`(?m)^  -` + m[1] + `\b`).MatchString(u) {
				t.Errorf("manual: %q: harness %s has no flag --%s", code, strings.Join(cmd, " "), m[1])
			}
		}
	}
	if lines < 8 {
		t.Errorf("the manual has %d harness command lines: the check no longer sees its examples", lines)
	}
}

// TestManualNamesTheEnvironment: the manual describes the environment in
// one paragraph ("Environment: ..."), and the variables it names in
// backquotes are exactly those the module's code reads (os.Getenv and
// os.LookupEnv in every non-test file, their names as literals or as
// constants of the module). Issue 54: the manual described the
// environment twice and both times left out HARNESS_SEAL_KEY and CI; a
// variable read anywhere now fails this test until the manual says what
// it does.
func TestManualNamesTheEnvironment(t *testing.T) {
	t.Parallel()
	var paragraphs []string
	for _, p := range strings.Split(manual(t), "\n\n") {
		if strings.HasPrefix(p, "Environment:") {
			paragraphs = append(paragraphs, p)
		}
	}
	if len(paragraphs) != 1 {
		t.Fatalf("the manual has %d paragraphs that begin \"Environment:\", want one", len(paragraphs))
	}
	var named []string
	for _, m := range regexp.MustCompile("`([A-Z][A-Z0-9_]*)[`=]").FindAllStringSubmatch(paragraphs[0], -1) {
		if !slices.Contains(named, m[1]) {
			named = append(named, m[1])
		}
	}
	read := envRead(t, "../..")
	slices.Sort(named)
	if !slices.Equal(named, read) {
		t.Errorf("the manual's environment paragraph names %v; the code reads %v", named, read)
	}
}

// envRead lists, sorted, the environment variables the non-test Go files
// under root read with os.Getenv or os.LookupEnv. A name is a string
// literal or a string constant declared in the module (by its package's
// directory); a call whose name is neither fails the test, so that no read
// goes unseen.
func envRead(t *testing.T, root string) []string {
	t.Helper()
	fset := token.NewFileSet()
	files := moduleFiles(t, fset, root)
	consts := stringConsts(files)
	var read []string
	for dir, fs := range files {
		for _, f := range fs {
			imports := moduleImports(f)
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || !isEnvRead(call) {
					return true
				}
				name, found := envName(call.Args[0], dir, imports, consts)
				switch {
				case !found:
					t.Errorf("%s: an environment read of a name this test cannot resolve: use a literal or a constant", fset.Position(call.Pos()))
				case !slices.Contains(read, name):
					read = append(read, name)
				}
				return true
			})
		}
	}
	slices.Sort(read)
	if len(read) == 0 {
		t.Fatal("no os.Getenv in the module: the check no longer sees the code")
	}
	return read
}

// moduleFiles parses the non-test Go files under root (testdata and
// hidden directories left out), by directory relative to root.
func moduleFiles(t *testing.T, fset *token.FileSet, root string) map[string][]*ast.File {
	t.Helper()
	files := map[string][]*ast.File{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		files[filepath.ToSlash(rel)] = append(files[filepath.ToSlash(rel)], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// stringConsts are the string constants the files declare with a
// literal, as "dir.Name" → value.
func stringConsts(files map[string][]*ast.File) map[string]string {
	consts := map[string]string{}
	for dir, fs := range files {
		for _, f := range fs {
			for _, decl := range f.Decls {
				if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.CONST {
					for _, spec := range g.Specs {
						addConsts(consts, dir, spec.(*ast.ValueSpec))
					}
				}
			}
		}
	}
	return consts
}

// addConsts adds the string literals of one constant spec to consts.
func addConsts(consts map[string]string, dir string, vs *ast.ValueSpec) {
	for i, name := range vs.Names {
		if i >= len(vs.Values) {
			continue
		}
		if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			consts[dir+"."+name.Name], _ = strconv.Unquote(lit.Value)
		}
	}
}

// moduleImports maps the names f imports the module's packages by to
// their directories.
func moduleImports(f *ast.File) map[string]string {
	const module = "bendscript.com/round-trip-harness"
	imports := map[string]string{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if rest, ok := strings.CutPrefix(p, module+"/"); ok {
			name := path.Base(rest)
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = rest
		}
	}
	return imports
}

// isEnvRead reports whether call is os.Getenv or os.LookupEnv of one name.
func isEnvRead(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 || (sel.Sel.Name != "Getenv" && sel.Sel.Name != "LookupEnv") {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "os"
}

// envName is the variable name arg holds, read in directory dir: a
// string literal, a constant of dir, or a constant of an imported package
// of the module; found is false for anything else.
func envName(arg ast.Expr, dir string, imports, consts map[string]string) (name string, found bool) {
	switch a := arg.(type) {
	case *ast.BasicLit:
		name, err := strconv.Unquote(a.Value)
		return name, a.Kind == token.STRING && err == nil
	case *ast.Ident:
		name, found = consts[dir+"."+a.Name]
	case *ast.SelectorExpr:
		if x, ok := a.X.(*ast.Ident); ok {
			name, found = consts[imports[x.Name]+"."+a.Sel.Name]
		}
	}
	return name, found
}
