package asl

import (
	"fmt"
	"reflect"
)

// Error names the runner itself raises, spelled as Step Functions spells them.
const (
	ErrAll             = "States.ALL"
	ErrTaskFailed      = "States.TaskFailed"
	ErrTimeout         = "States.Timeout"
	ErrRuntime         = "States.Runtime"
	ErrParameterPath   = "States.ParameterPathFailure"
	ErrResultPathMatch = "States.ResultPathMatchFailure"
	ErrNoChoiceMatched = "States.NoChoiceMatched"
	errHandlerPanicked = "PanicError"
)

// Error is a run failure as Step Functions reports it: an error name that
// Retry and Catch match on, and a cause. Run returns it for a Fail state and
// for any error no Catch handled; a handler may also return one to choose
// its error name explicitly.
type Error struct {
	Name  string // e.g. "TransientError", "States.Timeout"
	Cause string // the handler's message or the Fail state's Cause
	State string // the state that raised it, when known
	Err   error  // the handler's own error, for errors.As
}

func (e *Error) Error() string {
	if e.State != "" {
		return fmt.Sprintf("state %s: %s: %s", e.State, e.Name, e.Cause)
	}
	return fmt.Sprintf("%s: %s", e.Name, e.Cause)
}

func (e *Error) Unwrap() error { return e.Err }

// taskError turns a handler's error into the name Step Functions would match.
// Like the Lambda Go runtime it looks only at the outermost error's type, so
// an error wrapped by fmt.Errorf is named "wrapError" here too (STYLE.md 7):
// a definition that retries locally retries the same way in AWS.
func taskError(state string, err error) *Error {
	if e, ok := err.(*Error); ok {
		c := *e
		if c.State == "" {
			c.State = state
		}
		return &c
	}
	return &Error{Name: errorTypeName(err), Cause: err.Error(), State: state, Err: err}
}

func errorTypeName(err error) string {
	t := reflect.TypeOf(err)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() == "" {
		return ErrTaskFailed
	}
	return t.Name()
}

func runtimeError(state, format string, args ...any) *Error {
	return &Error{Name: ErrRuntime, Cause: fmt.Sprintf(format, args...), State: state}
}
