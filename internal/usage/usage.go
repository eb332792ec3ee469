// Package usage holds the harness's one usage error: input the user gave
// wrong (a flag value, an operand, a model name, a suite's --rungs or
// --steps), told apart from a failure of the harness or of a model.
// Whatever layer finds the mistake returns one, its message naming the
// flag or value and what would be taken; cmd/harness inspects it where it
// chooses the exit code: 2, the command could not run, never 1 (a
// negative result), whatever else the error wraps.
package usage

import (
	"errors"
	"fmt"
)

// Error is a request that cannot be carried out as given. Its text is the
// whole message: it names the flag or the value and what would be taken.
type Error struct{ Err error }

// Error is the mistake's message.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap is the mistake, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns a usage error formatted as fmt.Errorf formats (%w wraps).
func Errorf(format string, args ...any) error {
	return &Error{fmt.Errorf(format, args...)}
}

// Wrap marks err as a usage error; nil stays nil.
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	return &Error{err}
}

// Is reports whether err is, or wraps, a usage error.
func Is(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
