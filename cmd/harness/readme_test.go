package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/suites"
)

// TestHelpAgreesWithREADME: the commands of `harness help` are those of the
// README's CLI reference, the flags of `harness run -h` those of its run
// table, and both name every suite. Issue 23: run -h left natural out of
// --suite and misdescribed all, and nothing compared the two.
func TestHelpAgreesWithREADME(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)

	help, _, _ := runCLI(t, "help")
	var commands []string
	for _, l := range strings.Split(help, "\n") {
		if f := strings.Fields(l); strings.HasPrefix(l, "  ") && len(f) > 0 {
			commands = append(commands, f[0])
		}
	}
	ref := section(t, readme, "## CLI reference", "### harness run")
	block := ref[strings.Index(ref, "```")+3:]
	block = block[:strings.Index(block, "```")]
	var documented []string
	for _, l := range strings.Split(block, "\n") {
		if f := strings.Fields(l); len(f) > 0 && !strings.HasPrefix(l, " ") && f[0] != "go" && !slices.Contains(documented, f[0]) {
			documented = append(documented, f[0])
		}
	}
	slices.Sort(commands)
	slices.Sort(documented)
	if !slices.Equal(commands, documented) {
		t.Errorf("harness help lists %v, the README's CLI reference %v", commands, documented)
	}

	_, usage, _ := runCLI(t, "run", "-h")
	flagRe := regexp.MustCompile(`(?m)^  -([a-z-]+)`)
	var flags []string
	for _, m := range flagRe.FindAllStringSubmatch(usage, -1) {
		flags = append(flags, m[1])
	}
	table := section(t, readme, "### harness run", "### Determinism per model")
	var rows []string
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, "| `--") {
			cell := strings.Split(l, "|")[1]
			for _, m := range regexp.MustCompile("`--([a-z-]+)").FindAllStringSubmatch(cell, -1) {
				rows = append(rows, m[1])
			}
		}
	}
	slices.Sort(flags)
	slices.Sort(rows)
	if !slices.Equal(flags, rows) {
		t.Errorf("harness run -h has the flags %v, the README's run table %v", flags, rows)
	}
	suiteHelp := usage[strings.Index(usage, "  -suite"):]
	suiteHelp = suiteHelp[:strings.Index(suiteHelp[1:], "\n  -")+1]
	suiteRow := table[strings.Index(table, "| `--suite"):]
	suiteRow = suiteRow[:strings.Index(suiteRow, "\n")]
	for _, s := range suites.Names() {
		if !strings.Contains(suiteHelp, s) || !strings.Contains(suiteRow, "`"+s+"`") {
			t.Errorf("suite %q is missing from run -h (%q) or the README (%q)", s, suiteHelp, suiteRow)
		}
	}
	if !strings.Contains(suiteHelp, "all (gating, natural and relay") || !strings.Contains(suiteRow, "`all` (gating, natural and relay") {
		t.Errorf("run -h and the README do not describe --suite all alike:\n%s\n%s", suiteHelp, suiteRow)
	}
}

// section returns the text of s from the heading from to the heading to.
func section(t *testing.T, s, from, to string) string {
	t.Helper()
	i, j := strings.Index(s, from), strings.Index(s, to)
	if i < 0 || j < i {
		t.Fatalf("README has no section %q before %q", from, to)
	}
	return s[i:j]
}
