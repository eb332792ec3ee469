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
