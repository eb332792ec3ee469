package tabletest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestTables is the repository-wide half of habit 8: Cases checks a table
// when a test hands the table to it, and this test checks that every table
// test does. It parses every *_test.go file in the module and reports, as
// file:line,
//
//  1. a struct field named why in a test file: the module had two names for
//     a case's reason, and the one name is reason; and
//  2. a table loop that does not go through Cases or Map.
//
// A table loop is `for ... range X` in a function of a test file, where X
// is
//
//   - a slice, array or map composite literal, written in the range clause
//     or held by a variable (local to the function, or declared at package
//     level in a test file of the same directory), whose elements are two
//     or more struct literals of a type made for the test: an anonymous
//     struct, or a struct type declared in a test file of the same
//     directory; or
//   - a parameter of the function whose type is a slice, array or map of
//     such a type (a helper that runs the table its callers write, as
//     config's wantLoadErrors does).
//
// The loop passes when it reads `range tabletest.Cases(t, X)` or
// `range tabletest.Map(t, X)`.
//
// Why that line: two or more hand-written cases of a test-only struct are
// what a table test is, and what a reader needs reasons for. Loops over
// values that are not struct literals ([]string{...}, []bool{false, true},
// formats.Table), over the corpus read from testdata (tasks(t)), or over
// results (got.Rows) are data, not cases, and are left alone; so are
// literals of a production type (a []report.Row built as a fixture), which
// are inputs to a test rather than the list of its cases. A single struct
// literal is a fixture with a loop around it, not a table. The rule reads
// syntax, not types, so it does not follow a table through a function call
// or a slice expression (range cases[1:]); every table in the module is
// written in one of the forms above.
func TestTables(t *testing.T) {
	root := moduleRoot(t)
	dirs := map[string][]string{}
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
		if strings.HasSuffix(path, "_test.go") {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	tables := 0
	fset := token.NewFileSet()
	for _, files := range dirs {
		var parsed []*ast.File
		for _, path := range files {
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, f)
		}
		c := newChecker(fset, parsed)
		for _, f := range parsed {
			c.check(f)
		}
		problems = append(problems, c.problems...)
		tables += c.tables
	}
	for i, p := range problems {
		problems[i] = strings.TrimPrefix(p, root+string(filepath.Separator))
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
	if tables == 0 {
		t.Fatalf("found no table tests under %s: the check no longer sees the tables it exists for", root)
	}
	t.Logf("%d table loops go through tabletest", tables)
}

// moduleRoot is the nearest directory above the test's own that holds
// go.mod.
func moduleRoot(t *testing.T) string {
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// checker holds what the test files of one directory declare, which is
// what a table loop's variable and element type are looked up in.
type checker struct {
	fset *token.FileSet
	// testStructs are the struct types declared in the directory's test
	// files, at package level or inside a function, the named types a
	// table's cases may have.
	testStructs map[string]bool
	// globals are the package-level variables of the test files, by name.
	globals map[string]ast.Expr
	// pkg is the package name of the file being checked: inside package
	// tabletest, Cases is called without a qualifier.
	pkg      string
	problems []string
	tables   int
}

func newChecker(fset *token.FileSet, files []*ast.File) *checker {
	c := &checker{fset: fset, testStructs: map[string]bool{}, globals: map[string]ast.Expr{}}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.TypeSpec); ok {
				if _, ok := s.Type.(*ast.StructType); ok {
					c.testStructs[s.Name.Name] = true
				}
			}
			return true
		})
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gen.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					for i, name := range s.Names {
						if i < len(s.Values) {
							c.globals[name.Name] = s.Values[i]
						}
					}
				}
			}
		}
	}
	return c
}

func (c *checker) report(pos token.Pos, format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf("%s: %s", c.fset.Position(pos), fmt.Sprintf(format, args...)))
}

func (c *checker) check(f *ast.File) {
	c.pkg = f.Name.Name
	ast.Inspect(f, func(n ast.Node) bool {
		if st, ok := n.(*ast.StructType); ok {
			for _, field := range st.Fields.List {
				for _, name := range field.Names {
					if name.Name == "why" {
						c.report(name.Pos(), "field why: name it %s (one name for what a case guards, STYLE.md habit 8)", Field)
					}
				}
			}
		}
		if fn, ok := n.(*ast.FuncDecl); ok && fn.Body != nil {
			c.checkFunc(fn)
		}
		return true
	})
}

// checkFunc reports the table loops of fn (closures included) that do not
// go through Cases or Map.
func (c *checker) checkFunc(fn *ast.FuncDecl) {
	locals := map[string]ast.Expr{}
	params := map[string]bool{}
	for _, field := range fn.Type.Params.List {
		if c.isTableType(field.Type) {
			for _, name := range field.Names {
				params[name.Name] = true
			}
		}
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			// The last assignment before the loop in source order wins,
			// which is the one a table loop reads in every test here.
			if len(s.Lhs) == len(s.Rhs) {
				for i, lhs := range s.Lhs {
					if id, ok := lhs.(*ast.Ident); ok {
						locals[id.Name] = s.Rhs[i]
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range s.Names {
				if i < len(s.Values) {
					locals[name.Name] = s.Values[i]
				}
			}
		case *ast.RangeStmt:
			if c.isTabletestCall(s.X) {
				c.tables++
				return true
			}
			if id, ok := s.X.(*ast.Ident); ok && params[id.Name] {
				c.report(s.For, "table loop over parameter %s: range tabletest.Cases(t, %[1]s) (or tabletest.Map), so that a case without a reason fails", id.Name)
				return true
			}
			lit := c.literal(s.X, locals)
			if lit == nil || !c.isTable(lit) {
				return true
			}
			c.report(s.For, "table loop over %s: range tabletest.Cases(t, %[1]s) (or tabletest.Map), so that a case without a reason fails", exprString(s.X))
		}
		return true
	})
}

// isTabletestCall reports whether x is tabletest.Cases(...) or
// tabletest.Map(...), or Cases(...) or Map(...) inside this package.
func (c *checker) isTabletestCall(x ast.Expr) bool {
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	fun := call.Fun
	if ix, ok := fun.(*ast.IndexExpr); ok { // Cases[[]T](t, x)
		fun = ix.X
	}
	var name string
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		pkg, ok := f.X.(*ast.Ident)
		if !ok || pkg.Name != "tabletest" {
			return false
		}
		name = f.Sel.Name
	case *ast.Ident:
		if c.pkg != "tabletest" {
			return false
		}
		name = f.Name
	}
	return name == "Cases" || name == "Map"
}

// literal returns the composite literal that x is, or that the variable x
// holds, or nil.
func (c *checker) literal(x ast.Expr, locals map[string]ast.Expr) *ast.CompositeLit {
	for range 4 { // a variable may hold another variable
		switch e := x.(type) {
		case *ast.CompositeLit:
			return e
		case *ast.ParenExpr:
			x = e.X
		case *ast.Ident:
			if v, ok := locals[e.Name]; ok {
				x = v
			} else if v, ok := c.globals[e.Name]; ok {
				x = v
			} else {
				return nil
			}
		default:
			return nil
		}
	}
	return nil
}

// isTable reports whether lit is a slice, array or map of two or more
// struct literals of a test-only type (see TestTables).
func (c *checker) isTable(lit *ast.CompositeLit) bool {
	return c.isTableType(lit.Type) && len(lit.Elts) >= 2
}

// isTableType reports whether typ is a slice, array or map of a test-only
// struct type, or of pointers to one.
func (c *checker) isTableType(typ ast.Expr) bool {
	var elem ast.Expr
	switch typ := typ.(type) {
	case *ast.ArrayType:
		elem = typ.Elt
	case *ast.MapType:
		elem = typ.Value
	default:
		return false
	}
	if star, ok := elem.(*ast.StarExpr); ok {
		elem = star.X
	}
	switch e := elem.(type) {
	case *ast.StructType:
	case *ast.Ident:
		if !c.testStructs[e.Name] {
			return false
		}
	default:
		return false
	}
	return true
}

func exprString(x ast.Expr) string {
	switch e := x.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.CompositeLit:
		return "[]T{...}"
	default:
		return "..."
	}
}
