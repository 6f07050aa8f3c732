package engines

import (
	"errors"
	"fmt"
)

// ErrUnauthorized: the engine refused the key (HTTP 401/403). Every engine
// client wraps this one value, so one errors.Is check covers them all.
var ErrUnauthorized = errors.New("engine refused the API key")

// EngineError is a failed engine call, naming the engine URL and its HTTP
// status (0 when no response arrived: refused connection, timeout). Chat,
// speech and image clients all return it, so callers handle them alike; it
// lives here, away from openai-go, so that types which only name engine
// errors do not link the client library.
type EngineError struct {
	URL    string
	Status int
	Detail string
	Err    error
	// RetryAfter is the engine's Retry-After header (seconds or an HTTP
	// date) on a 429 or 503 answer, as sent; empty otherwise.
	RetryAfter string
}

func (e *EngineError) Error() string {
	if e.Status == 0 {
		return fmt.Sprintf("engine %s: %s", e.URL, e.Detail)
	}
	return fmt.Sprintf("engine %s answered %d: %s", e.URL, e.Status, e.Detail)
}

func (e *EngineError) Unwrap() error { return e.Err }
