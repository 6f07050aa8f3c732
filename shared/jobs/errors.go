package jobs

import "github.com/lectern/lectern/shared/fault"

var (
	// ErrNotFound: no job record with that id.
	ErrNotFound = fault.New(fault.NotFound, "job not found")
	// ErrInvalid: a malformed request (bad id, kind, payload, progress value, registration).
	ErrInvalid = fault.New(fault.Invalid, "invalid job request")
	// ErrUnknownKind: no handler is registered for the job's kind; the job fails.
	ErrUnknownKind = fault.New(fault.Invalid, "unknown job kind")
	// ErrTransient: the job did not reach a final state this time and should be run again later.
	ErrTransient = fault.New(fault.Unavailable, "transient job failure")
	// ErrSuperseded: this run no longer owns the job (another attempt took it over, or it finished).
	ErrSuperseded = fault.New(fault.Conflict, "job run superseded")
	// ErrCancelled: the job was cancelled (the cause of a cancelled run's
	// context); it fails, and is not run again.
	ErrCancelled = fault.New(fault.Conflict, "job cancelled")
)

// Transient marks a handler error as worth retrying (an engine that is down,
// a timeout): the job goes back to queued and is run again, up to the
// Runner's MaxAttempts. Any other handler error fails the job at once.
func Transient(err error) error {
	if err == nil {
		return nil
	}
	return transientError{err}
}

type transientError struct{ err error }

func (e transientError) Error() string { return e.err.Error() }

// Unwrap exposes both the cause and ErrTransient to errors.Is/As.
func (e transientError) Unwrap() []error { return []error{e.err, ErrTransient} }
