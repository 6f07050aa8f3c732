package sfnexec

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sfn/types"
)

func TestExecutionARN(t *testing.T) {
	got, err := ExecutionARN("arn:aws:states:eu-west-1:123456789012:stateMachine:Ingest-abc", "4f1c-run")
	if want := "arn:aws:states:eu-west-1:123456789012:execution:Ingest-abc:4f1c-run"; err != nil || got != want {
		t.Errorf("ExecutionARN = %q, %v; want %q", got, err, want)
	}
	for _, bad := range [][2]string{
		{"arn:aws:states:eu-west-1:123456789012:activity:X", "run"},
		{"arn:aws:states:eu-west-1:123456789012:stateMachine:Ingest", ""},
		{"arn:aws:states:eu-west-1:123456789012:stateMachine:Ingest", "local:uploads/x.pdf"},
	} {
		if got, err := ExecutionARN(bad[0], bad[1]); err == nil {
			t.Errorf("ExecutionARN(%q, %q) = %q, want an error", bad[0], bad[1], got)
		}
	}
}

// stopper stands in for the Step Functions client at its SDK interface.
type stopper struct {
	got *sfn.StopExecutionInput
	err error
}

func (s *stopper) StopExecution(_ context.Context, in *sfn.StopExecutionInput, _ ...func(*sfn.Options)) (*sfn.StopExecutionOutput, error) {
	s.got = in
	return &sfn.StopExecutionOutput{}, s.err
}

// Stop names the owner's execution with the reason; one that no longer
// exists is not an error, any other failure is.
func TestStop(t *testing.T) {
	api := &stopper{}
	ex := New(api, "arn:aws:states:eu-west-1:123456789012:stateMachine:Ingest")
	if err := ex.Stop(t.Context(), "run-1", "the user cancelled the ingest"); err != nil {
		t.Fatal(err)
	}
	if *api.got.ExecutionArn != "arn:aws:states:eu-west-1:123456789012:execution:Ingest:run-1" || *api.got.Cause != "the user cancelled the ingest" {
		t.Errorf("StopExecution got %s, %s", *api.got.ExecutionArn, *api.got.Cause)
	}
	api.err = &types.ExecutionDoesNotExist{}
	if err := ex.Stop(t.Context(), "run-1", "x"); err != nil {
		t.Errorf("a missing execution: %v", err)
	}
	api.err = errors.New("throttled")
	if err := ex.Stop(t.Context(), "run-1", "x"); err == nil {
		t.Error("a failed stop answered no error")
	}
}
