package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/fault"
)

// statusOf is the one table from error kinds to HTTP statuses.
var statusOf = map[fault.Kind]int{
	fault.NotFound:    http.StatusNotFound,
	fault.Invalid:     http.StatusUnprocessableEntity,
	fault.Conflict:    http.StatusConflict,
	fault.TooLarge:    http.StatusRequestEntityTooLarge,
	fault.Upstream:    http.StatusBadGateway,
	fault.Unavailable: http.StatusServiceUnavailable,
}

// Problem maps a service error to the problem document the client sees. It is
// the only place domain errors meet HTTP status codes: a domain error's text
// is meant for the user (a refused PDF's reason, an engine's URL and status,
// never a key). A cancelled request is the client leaving (499). Errors
// without a kind are logged and answered 500 without internal detail. Errors huma already made (304, a transport-level 400) pass.
func Problem(log *slog.Logger, err error) error {
	var already huma.StatusError
	if errors.As(err, &already) {
		return err
	}
	if errors.Is(err, context.Canceled) {
		// The client left (closed the tab, cancelled the upload): nothing
		// went wrong here, and no one reads the answer.
		log.Info("client closed the request", "err", err)
		return huma.NewError(StatusClientClosed, "the client closed the request before it was answered")
	}
	if status, ok := statusOf[fault.KindOf(err)]; ok {
		sentence, cause := Explain(err)
		if cause == "" {
			return huma.NewError(status, sentence)
		}
		return huma.NewError(status, sentence, &huma.ErrorDetail{Location: CauseLocation, Message: cause})
	}
	log.Error("internal error", "err", err)
	return huma.Error500InternalServerError("internal error; see the server log")
}

// CauseLocation marks the problem's error entry that holds the technical
// cause, apart from the detail, which is the sentence for the user.
const CauseLocation = "cause"

// unreachable is the sentence for a call that found nothing at its address,
// when the error has none of its own: the network's words ("dial tcp …:
// connection refused") tell a user neither what happened nor what to do.
const unreachable = "Lectern could not reach an engine or service it calls: nothing answered at its address. Check that it is running and that its URL is right, then try again."

// Explain splits a failure into the sentence for the user and the
// technical cause ("" when the sentence is the error's own text). Repeated
// "x: x:" segments are dropped from both.
func Explain(err error) (sentence, cause string) {
	text := fault.Tidy(err.Error())
	if s, ok := fault.ExplanationOf(err); ok {
		return s, text
	}
	if op := (*net.OpError)(nil); errors.As(err, &op) && op.Op == "dial" {
		return unreachable, text
	}
	return text, ""
}

// WriteProblem writes a problem document outside huma (auth, unknown paths).
func WriteProblem(w http.ResponseWriter, status int, detail string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(huma.ErrorModel{
		Title:  http.StatusText(status),
		Status: status,
		Detail: detail,
	})
}
