// Command harness is the BendScript v0.1 round-trip drift harness (§8 of the
// spec): it validates and identifies .bend documents, runs the corpus tasks
// against models, scores every transcript and writes the verdict report.
//
// Run "harness help" for the subcommands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	commandName = selfName(os.Args[0])
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		printError(os.Stderr, err)
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
