package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/cmd/harness/internal/flagargs"
	"bendscript.com/round-trip-harness/cmd/harness/internal/suggest"
	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/pipeline"
)

// Exit codes: 0 success (or a passing verdict), 1 a negative result (invalid
// document, failing verdict, id mismatch), 2 the command could not run
// (usage, configuration, I/O): every error not wrapped in an exitError.
const exitFail, exitCantRun = 1, 2

// exitError carries an exit code with its error.
type exitError struct {
	code int
	err  error
}

// Error is the failure's message.
func (e *exitError) Error() string { return e.err.Error() }

// Unwrap is the failure, for errors.Is and errors.As.
func (e *exitError) Unwrap() error { return e.err }

// errSilent marks a failure already explained on stderr.
var errSilent = errors.New("failed")

// failed returns an error that exits 1 without printing more.
func failed() error { return &exitError{exitFail, errSilent} }

// wrongUsage prints the command's usage, then returns the mistake as a
// usage error: for operands that do not fit the synopsis.
func wrongUsage(fs *flag.FlagSet, format string, args ...any) error {
	fs.Usage()
	return usage.Errorf(format, args...)
}

// exitCode chooses the exit code: 2 for a usage error (usage.Error, from
// whichever layer found the mistake), even one wrapped in an error that
// carries a code of its own; else an exitError's code; else 2, the
// command could not run.
func exitCode(err error) int {
	var ee *exitError
	switch {
	case usage.Is(err):
		return exitCantRun
	case errors.As(err, &ee):
		return ee.code
	}
	return exitCantRun
}

// pipelineError maps the pipeline's errors to exit codes, for every
// command (run applies it): a failing verdict 1 (the report already said
// why), anything else 2; an interruption or a spending cap prints how to
// resume, on the command's stderr.
func pipelineError(err error, stderr io.Writer) error {
	var ie *pipeline.InterruptedError
	var be *pipeline.BudgetError
	var de *pipeline.DownError
	var se *pipeline.StoppedError
	switch {
	case errors.Is(err, pipeline.ErrVerdictFail):
		return failed()
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "\n%v\n", ie)
		return &exitError{exitCantRun, errSilent}
	case errors.As(err, &be):
		fmt.Fprintf(stderr, "\n%v\n", be)
		return &exitError{exitCantRun, errSilent}
	case errors.As(err, &de):
		fmt.Fprintf(stderr, "\n%v\n", de)
		return &exitError{exitCantRun, errSilent}
	case errors.As(err, &se):
		fmt.Fprintf(stderr, "\n%v\n", se)
		return &exitError{exitCantRun, errSilent}
	}
	return err
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"validate", "check .bend files against the v0.1 rules", cmdValidate},
		{"id", "print, check or write the content id of .bend files", cmdID},
		{"project", "render a .bend file as the harness's text projection, or parse one back (--parse)", cmdProject},
		{"corpus", "check the corpus, tasks and gold edits (check); build the size ladder (ladder); what the thresholds let through (sensitivity)", cmdCorpus},
		{"expect", "print the expected document of a class B/C task", cmdExpect},
		{"judge", "calibrate the class A judges on hand-labelled answers", cmdJudge},
		{"score", "score one model answer to one task (drift, components, edit compliance)", cmdScore},
		{"run", "run the tasks against the models, score, and write the report", cmdRun},
		{"rescore", "recompute the scores and the report of an archived run, offline", cmdRescore},
		{"compare", "compare two JSON reports per model and class, with significance", cmdCompare},
		{"runs", "list the runs in a directory: id, start, suite, models, verdict, state, cost", cmdRuns},
		{"show", "print one transcript of a run: instruction, expected → produced diff, diagnostics, votes, cost", cmdShow},
		{"trend", "follow the headline numbers across any number of JSON reports, in date order", cmdTrend},
		{"version", "print the harness version", cmdVersion},
	}
}

// run is the whole program; main only maps its error to an exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	// Everything printed passes through safetext: a model's answer, a
	// server's provider or error message, a judge's reason and a
	// manifest's names reached the terminal raw (issue 32).
	sout, serr := safetext.NewWriter(stdout), safetext.NewWriter(stderr)
	defer sout.Flush()
	defer serr.Flush()
	stdout, stderr = sout, serr
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(stdout)
		if len(args) == 0 {
			return usage.Errorf("no command given")
		}
		return nil
	}
	var names []string
	for _, c := range commands() {
		if c.name == args[0] {
			return pipelineError(c.run(ctx, args[1:], stdout, stderr), stderr)
		}
		names = append(names, c.name)
	}
	if near := suggest.Nearest(args[0], names); near != "" {
		return usage.Errorf("unknown command %q; did you mean %q? (harness help lists the commands)", args[0], near)
	}
	return usage.Errorf("unknown command %q (harness help lists the commands)", args[0])
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: harness <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	cs := commands()
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	for _, c := range cs {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "harness <command> -h" for a command's flags and examples.`)
}

func cmdVersion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "version", "harness version", stderr)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	fmt.Fprintf(stdout, "harness %s (BendScript %s)\n", Version, bend.Version)
	return nil
}

// Version is the harness version recorded in transcripts and reports.
const Version = "0.1.0"

// newFlagSet returns a FlagSet whose usage prints the synopsis, the flags and
// the examples.
func newFlagSet(name, synopsis, examples string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: harness %s\n", synopsis)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(stderr, "\nFlags:")
			fs.PrintDefaults()
		}
		if examples != "" {
			fmt.Fprintln(stderr, "\nExamples:")
			for _, l := range strings.Split(strings.TrimSpace(examples), "\n") {
				fmt.Fprintln(stderr, "  "+strings.TrimSpace(l))
			}
		}
	}
	return fs
}

// renamedFlags are flags that have a new name, by command and old name,
// so that an old script's flag is answered with the new name, not a near
// miss (issue 36: corpus ladder's --sizes is --rungs, as on run).
var renamedFlags = map[string]map[string]string{"corpus ladder": {"sizes": "rungs"}}

// decimalOnly makes every numeric flag of fs take decimal digits only:
// Go's flag package reads an int as strconv.ParseInt(s, 0, ...) does, so
// "--round-trips 0x10" was 16 and "010" was 8, and a float takes
// "0x1p4", "Inf" and "NaN" (issue 53). restore puts the flags' own values
// back, whose types the usage text names ("int").
func decimalOnly(fs *flag.FlagSet) (restore func()) {
	var wrapped []*flag.Flag
	restore = func() {
		for _, f := range wrapped {
			f.Value = f.Value.(*decimalValue).Value
		}
	}
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		switch g.Get().(type) {
		case int, int64, uint, uint64:
			f.Value = &decimalValue{Value: f.Value, re: wholeRe, want: "a whole number in decimal digits"}
		case float64:
			f.Value = &decimalValue{Value: f.Value, re: decimalRe, want: "a decimal number"}
		default:
			return
		}
		wrapped = append(wrapped, f)
	})
	return restore
}

var (
	wholeRe   = regexp.MustCompile(`^[+-]?[0-9]+$`)
	decimalRe = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)
)

// decimalValue is a numeric flag that refuses every spelling but decimal
// before its own Set reads it.
type decimalValue struct {
	flag.Value
	re   *regexp.Regexp
	want string
}

func (d *decimalValue) Set(s string) error {
	if !d.re.MatchString(s) {
		return fmt.Errorf("want %s, not %q", d.want, s)
	}
	if d.re == wholeRe {
		// The flag's own Set reads "010" as octal 8: it is given the
		// number in its plain decimal form.
		digits := strings.TrimLeft(strings.TrimLeft(s, "+-"), "0")
		if digits == "" {
			digits = "0"
		}
		if strings.HasPrefix(s, "-") {
			digits = "-" + digits
		}
		s = digits
	}
	return d.Value.Set(s)
}

// parseFlags parses args; -h is a successful request for help. A mistake
// (an unknown flag, a bad value) is one line, with the nearest flag when
// the name looks mistyped, instead of the whole usage.
func parseFlags(fs *flag.FlagSet, args []string) (help bool, err error) {
	out, printUsage := fs.Output(), fs.Usage
	restore := decimalOnly(fs)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err = flagargs.Parse(fs, args)
	restore()
	fs.SetOutput(out)
	fs.Usage = printUsage
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, flag.ErrHelp):
		printUsage()
		return true, nil
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		msg = fmt.Sprintf("no flag --%s", name)
		if now, ok := renamedFlags[fs.Name()][name]; ok {
			msg += fmt.Sprintf("; it is --%s now", now)
		} else if near := suggest.Nearest(name, names); near != "" {
			msg += fmt.Sprintf("; did you mean --%s?", near)
		}
	}
	return false, usage.Errorf("%s: %s (harness %s -h lists the flags)", fs.Name(), msg, fs.Name())
}
