package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store"
)

func TestProblemMapsEveryKindOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		status int
	}{
		{"a store miss is 404", fmt.Errorf("get x: %w", store.ErrNotFound), 404},
		{"a failed condition is 409", store.ErrConditionFailed, 409},
		{"a missing blob is 404, not 500", blob.ErrNotFound, 404},
		{"a bad blob key is 422", blob.ErrInvalidKey, 422},
		{"a missing job is 404, not 500", jobs.ErrNotFound, 404},
		{"an unknown job kind is 422", jobs.ErrUnknownKind, 422},
		{"a transient job failure is 503", jobs.ErrTransient, 503},
		{"bad settings are 422", settings.ErrInvalid, 422},
		{"a refused PDF is 422", &pdf.InvalidInputError{Reason: pdf.ReasonCorrupt, Detail: "x"}, 422},
		{"an oversized PDF is 413", &pdf.InvalidInputError{Reason: pdf.ReasonTooLarge, Detail: "x"}, 413},
		{"an engine failure is 502", fault.New(fault.Upstream, "engine call failed"), 502},
		{"a huma error passes as it is", huma.Error400BadRequest("bad header"), 400},
		{"a client that left is 499, not 500", fmt.Errorf("store blob: %w", context.Canceled), 499},
		{"a client that left during an engine call is not a 502", fmt.Errorf("%w: %w", fault.New(fault.Upstream, "engine call failed"), context.Canceled), 499},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var status huma.StatusError
			if !errors.As(Problem(slog.Default(), tc.err), &status) || status.GetStatus() != tc.status {
				t.Fatalf("Problem(%v) = %v, want status %d", tc.err, status, tc.status)
			}
		})
	}
}

func TestProblemHidesInternalErrors(t *testing.T) {
	var logged bytes.Buffer
	err := Problem(slog.New(slog.NewTextHandler(&logged, nil)), errors.New("disk /var/secret is full"))
	var status huma.StatusError
	if !errors.As(err, &status) || status.GetStatus() != http.StatusInternalServerError {
		t.Fatalf("got %v, want 500", err)
	}
	if strings.Contains(err.Error(), "secret") {
		t.Fatalf("the answer leaks internal detail: %v", err)
	}
	if !strings.Contains(logged.String(), "secret") {
		t.Fatalf("the internal error is not logged: %q", logged.String())
	}
}

func TestEveryKindHasAStatus(t *testing.T) {
	for k := fault.NotFound; k <= fault.Unavailable; k++ {
		if _, ok := statusOf[k]; !ok {
			t.Errorf("kind %v has no status", k)
		}
	}
}

func TestProblemLogsACancelledRequestAsNoError(t *testing.T) {
	var logged bytes.Buffer
	Problem(slog.New(slog.NewTextHandler(&logged, nil)), fmt.Errorf("upload: %w", context.Canceled))
	if strings.Contains(logged.String(), "internal error") || strings.Contains(logged.String(), "level=ERROR") {
		t.Fatalf("a client that left is logged as a fault: %s", logged.String())
	}
}

// A problem's detail is the sentence for the user; the technical cause is a
// separate entry, and a repeated "x: x:" never reaches either.
func TestProblemGivesASentenceAndTheCauseApart(t *testing.T) {
	for _, tc := range []struct {
		name, detailHas, causeHas string
		err                       error
	}{
		{"a cut-short PDF", "damaged or cut short", "xref table: unexpected eof",
			fmt.Errorf("upload: %w", &pdf.InvalidInputError{Reason: pdf.ReasonCorrupt, Detail: "read context: xref table: xref table: unexpected eof"})},
		{"an engine that does not answer", "Check that it is running", "connection refused",
			fmt.Errorf("%w: %w", fault.New(fault.Upstream, "engine call failed"),
				&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")})},
		{"a sentence of its own", "holds binary data", "binary.txt: the file is binary",
			fault.Explain(fmt.Errorf("binary.txt: binary.txt: the file is binary: %w", fault.New(fault.Invalid, "not a book")), "binary.txt holds binary data.")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var model *huma.ErrorModel
			if !errors.As(Problem(slog.Default(), tc.err), &model) {
				t.Fatalf("Problem(%v) is not a problem document", tc.err)
			}
			if !strings.Contains(model.Detail, tc.detailHas) || strings.Contains(model.Detail, "dial tcp") || strings.Contains(model.Detail, "xref") {
				t.Errorf("detail %q: want a sentence with %q and no technical cause", model.Detail, tc.detailHas)
			}
			if len(model.Errors) != 1 || model.Errors[0].Location != CauseLocation || !strings.Contains(model.Errors[0].Message, tc.causeHas) {
				t.Fatalf("errors %+v: want one cause entry with %q", model.Errors, tc.causeHas)
			}
			for _, seg := range []string{"xref table: xref table", "binary.txt: binary.txt"} {
				if strings.Contains(model.Errors[0].Message, seg) {
					t.Errorf("cause %q repeats a segment", model.Errors[0].Message)
				}
			}
		})
	}
}
