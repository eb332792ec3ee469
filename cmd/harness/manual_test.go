package main

import (
	"go/parser"
	"go/token"
	"regexp"
	"slices"
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
