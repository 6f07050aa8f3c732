package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"reflect"
	"unicode"
)

// The errors of lectern_mcp's own checks; upstream answers are *StatusError.
var (
	// ErrInvalid is input the tool refuses before calling the API.
	ErrInvalid = errors.New("invalid input")
	// ErrNotFound is a local file or a search result that does not exist.
	ErrNotFound = errors.New("not found")
	// ErrForbidden is a path or URL outside what this server was allowed to
	// read or fetch.
	ErrForbidden = errors.New("refused")
	// ErrUnsupported is a request this server or its client cannot carry out.
	ErrUnsupported = errors.New("not supported")
	// ErrTimeout is an upstream call or a wait that outlived its limit.
	ErrTimeout = errors.New("timed out")
	// ErrJobFailed is a background job that ended in failure (its reason
	// is in the message).
	ErrJobFailed = errors.New("the job failed")
)

// StatusError is an upstream answer that was not a success: its status and
// the problem document's detail.
type StatusError struct {
	Method, Path string
	Status       int
	Detail       string
}

func (e *StatusError) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
	}
	return fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, e.Detail)
}

// ErrorText is the one mapping from an error to the text a failed tool call
// returns (the spec's Errors table): "Error: " and what it means.
func ErrorText(err error) string {
	var se *StatusError
	switch {
	case errors.As(err, &se):
		return "Error: " + statusText(se)
	case errors.Is(err, ErrTimeout):
		return "Error: Request timed out. Please try again. (" + clean(err.Error()) + ")"
	case isTimeout(err):
		return "Error: Request timed out. Please try again."
	case errors.Is(err, context.Canceled):
		return "Error: The request was cancelled."
	case errors.Is(err, ErrInvalid), errors.Is(err, ErrNotFound), errors.Is(err, ErrUnsupported), errors.Is(err, ErrJobFailed), errors.Is(err, ErrForbidden),
		errors.Is(err, os.ErrNotExist), errors.Is(err, os.ErrPermission):
		return "Error: " + sentence(clean(err.Error()))
	}
	return fmt.Sprintf("Error: Unexpected error occurred: %s: %s", typeName(err), clean(err.Error()))
}

// statusText says what an upstream status means, with the API's own detail
// where it gave one (it names what was missing or refused).
func statusText(se *StatusError) string {
	var s string
	switch se.Status {
	case http.StatusNotFound:
		s = "Resource not found. Please check the ID is correct."
	case http.StatusForbidden:
		s = "Permission denied. You don't have access to this resource."
	case http.StatusTooManyRequests:
		s = "Rate limit exceeded. Please wait before making more requests."
	case http.StatusUnauthorized:
		s = "Invalid API authentication. Check the Lectern token (--token or LECTERN_TOKEN)."
	default:
		s = fmt.Sprintf("API request failed with status %d.", se.Status)
	}
	if se.Detail != "" {
		s += " Lectern said: " + clean(se.Detail)
	}
	return s
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrTimeout) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// typeName is the innermost error's Go type, the "error type name" the spec
// asks an unexpected error to carry.
func typeName(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			break
		}
		err = next
	}
	return reflect.TypeOf(err).String()
}

// sentence starts a message with a capital letter.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
