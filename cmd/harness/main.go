// Command harness is the BendScript v0.1 round-trip drift harness (§8 of
// the spec): it sends corpus documents and edit tasks to models through an
// OpenAI-compatible API, scores every answer with the drift metric, and
// writes the verdict report.
//
// Usage:
//
//	harness <command> [flags] [args]
//
// Documents:
//
//	validate FILE...             check .bend files against the v0.1 rules
//	id [--check|--write] FILE... print, check or rewrite their content ids
//
// Tasks and corpus:
//
//	corpus check                 the documents, tasks, gold edits, inverses and the §8.2 table
//	corpus ladder --out DIR      the size ladder: large documents with placed edits
//	corpus sensitivity           what each threshold lets through
//	expect --task FILE           the expected document of a class B/C task
//	score --task FILE --output F one model answer scored: drift, components, compliance
//	judge calibrate --models J   judges against the hand-labelled class A answers
//
// Runs and reports:
//
//	run                          the tasks against the models, judged, scored, reported
//	rescore RUN_DIR              the scores and report of an archived run, offline
//	runs [DIR]                   the runs in a directory
//	show RUN TASK                one transcript as a person reads it
//	compare OLD.json NEW.json    two reports per model and class, with significance
//	trend REPORT.json...         headline numbers across reports in date order
//	version                      the harness version
//
// Every command prints its flags and examples with -h; README.md has the
// full reference.
//
// Shared flags mean the same everywhere: --corpus and --instructions name
// the data directories (the embedded copies stand in only for ./corpus and
// ./instructions when those do not exist; any other directory that does
// not exist is an error), --config the configuration file (built-in
// defaults when ./harness.yaml does not exist), --reports (run) and --out
// (rescore) the directory of reports.
//
// Environment: OPENROUTER_API_KEY (else an OPENROUTER_API_KEY line of
// ./.env) is sent to online models, never written; OPENROUTER_BASE_URL is
// the API root when --base-url is not given. Models named offline/...
// answer in process and need neither.
//
// Files: run writes runs/<run-id>/ (run.json, the manifest, and one
// content-hashed transcript per request) and reports/<run-id>.json, .md,
// .html and .csv.
//
// Exit codes: 0 success or a passing verdict; 1 a negative result (an
// invalid document, a failing verdict, an id mismatch); 2 the command
// could not run (usage, configuration, I/O, an interrupted run).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/pipeline"
)

func main() {
	commandName = pipeline.SelfCommand(os.Args[0])
	ctx, stop := signalContext()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		printError(safetext.NewWriter(os.Stderr), err)
		os.Exit(exitCode(err))
	}
}

// printError prints err as the command's last word, unless it was already
// explained (errSilent).
func printError(w io.Writer, err error) {
	if !errors.Is(err, errSilent) {
		fmt.Fprintf(w, "harness: %v\n", err)
	}
}

// signalContext is canceled by the first SIGINT or SIGTERM, and the
// harness stops cleanly, printing how to resume; after it a second signal
// has its default effect and ends the harness at once (issue 32: a second
// Ctrl-C did nothing).
func signalContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}
