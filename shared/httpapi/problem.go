package httpapi

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store"
)

// Problem maps a service error to the problem document the client sees. It is
// the only place domain errors meet HTTP status codes. Unknown errors are
// logged and answered 500 without internal detail.
func Problem(log *slog.Logger, err error) error {
	var status huma.StatusError
	var refused interface{ ProblemStatus() int }
	switch {
	case errors.As(err, &status):
		return err
	case errors.As(err, &refused):
		// Errors that know their status carry text meant for the user: a
		// refused PDF's reason, or an engine's URL and answer (never a key).
		return huma.NewError(refused.ProblemStatus(), err.Error())
	case errors.Is(err, settings.ErrInvalid), errors.Is(err, store.ErrInvalid), errors.Is(err, blob.ErrInvalidKey):
		return huma.Error422UnprocessableEntity(err.Error())
	case errors.Is(err, store.ErrNotFound), errors.Is(err, blob.ErrNotFound):
		return huma.Error404NotFound(err.Error())
	case errors.Is(err, store.ErrConditionFailed), errors.Is(err, settings.ErrConflict):
		return huma.Error409Conflict(err.Error())
	}
	log.Error("internal error", "err", err)
	return huma.Error500InternalServerError("internal error; see the server log")
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
