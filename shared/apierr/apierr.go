// Package apierr makes domain errors that carry the HTTP status an API
// answers with, so the single problem mapping (httpapi.Problem) needs no
// knowledge of each domain's errors.
package apierr

// Error is a sentinel with a status; wrap it with %w to add the detail.
type Error struct {
	msg    string
	status int
}

// New returns a sentinel error answered with status.
func New(status int, msg string) error { return &Error{msg: msg, status: status} }

func (e *Error) Error() string { return e.msg }

// ProblemStatus is the HTTP status of a problem document for this error.
func (e *Error) ProblemStatus() int { return e.status }
