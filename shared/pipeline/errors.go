package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/pdf"
)

// StepError is step input the pipeline refuses for good (a bad source key, a
// missing upload, a page without a render, a box off the page): retrying
// cannot help. Step Functions sees its type name, and Catch records it on the
// page or the issue.
type StepError struct {
	Reason string
	Page   int // 1-based; 0 when not about one page
	Detail string
}

func (e *StepError) Error() string {
	if e.Page > 0 {
		return fmt.Sprintf("page %d: %s: %s", e.Page, e.Reason, e.Detail)
	}
	return fmt.Sprintf("%s: %s", e.Reason, e.Detail)
}

// Kind files the refusal: too large, or invalid.
func (e *StepError) Kind() fault.Kind {
	if e.Reason == string(pdf.ReasonTooLarge) {
		return fault.TooLarge
	}
	return fault.Invalid
}

// TransientError is a failure worth retrying (storage or network hiccups);
// the state machine retries it with backoff by this type name.
type TransientError struct{ Err error }

func (e *TransientError) Error() string { return e.Err.Error() }
func (e *TransientError) Unwrap() error { return e.Err }

// Kind: a part is down for now.
func (e *TransientError) Kind() fault.Kind { return fault.Unavailable }

// Transient files err as worth retrying as transient does, for the
// packages that wire the steps' engines (visionocr).
func Transient(err error) error { return transient(err) }

// transient files err as worth retrying unless it is a refusal (of the step's
// input or of the PDF) or a cancellation, which a retry cannot mend.
func transient(err error) error {
	var step *StepError
	var refused *pdf.InvalidInputError
	if err == nil || errors.As(err, &step) || errors.As(err, &refused) || errors.Is(err, context.Canceled) {
		return err
	}
	return &TransientError{Err: err}
}
