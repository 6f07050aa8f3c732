package pipeline

import (
	"context"
	"encoding/json"
)

// Lambda adapts a step to a Lambda handler. Errors are returned as they are,
// so the Lambda runtime reports the Go type name (TransientError, StepError,
// pdf's InvalidInputError, OCRError) that the definition's Retry and Catch match.
func Lambda[In, Out any](step func(context.Context, In) (Out, error)) func(context.Context, json.RawMessage) (json.RawMessage, error) {
	return handler(step)
}
