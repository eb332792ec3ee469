//go:build !unix

package pipeline

import "context"

// lockRun is a no-op where flock is not available: one writer per run
// directory is then the user's to ensure.
func lockRun(string) (func(), error) { return func() {}, nil }

// lockReports is a no-op where flock is not available: one writer of a
// run's reports is then the user's to ensure.
func lockReports(context.Context, string, string) (func(), error) { return func() {}, nil }
