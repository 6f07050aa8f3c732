// Package sfnexec stops ingest executions in AWS Step Functions: the
// platform.Executions of AWS mode, used when a user cancels an ingest.
package sfnexec

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sfn/types"

	"github.com/lectern/lectern/shared/awsenv"
	"github.com/lectern/lectern/shared/platform"
)

// API is the part of the Step Functions client used here.
type API interface {
	StopExecution(ctx context.Context, in *sfn.StopExecutionInput, opts ...func(*sfn.Options)) (*sfn.StopExecutionOutput, error)
}

// Executions stops executions of one state machine by name.
type Executions struct {
	client       API
	stateMachine string
}

var _ platform.Executions = (*Executions)(nil)

// New stops executions of the state machine stateMachineArn.
func New(client API, stateMachineArn string) *Executions {
	return &Executions{client: client, stateMachine: stateMachineArn}
}

// Stop ends the named execution. One that has ended already, or never
// started, answers ExecutionDoesNotExist or nothing to stop: no error.
func (e *Executions) Stop(ctx context.Context, name, why string) error {
	arn, err := ExecutionARN(e.stateMachine, name)
	if err != nil {
		return err
	}
	_, err = e.client.StopExecution(ctx, &sfn.StopExecutionInput{
		ExecutionArn: &arn, Error: ptr("Cancelled"), Cause: &why,
	})
	var missing *types.ExecutionDoesNotExist
	if errors.As(err, &missing) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("stop execution %s: %w", name, err)
	}
	return nil
}

// ExecutionARN is the ARN of a state machine's execution by name:
// arn:aws:states:REGION:ACCOUNT:stateMachine:SM becomes
// arn:aws:states:REGION:ACCOUNT:execution:SM:NAME.
func ExecutionARN(stateMachineArn, name string) (string, error) {
	head, machine, ok := strings.Cut(stateMachineArn, ":stateMachine:")
	if !ok || machine == "" || strings.Contains(machine, ":") || name == "" || strings.Contains(name, ":") {
		return "", fmt.Errorf("no execution ARN from state machine %q and name %q", stateMachineArn, name)
	}
	return head + ":execution:" + machine + ":" + name, nil
}

func ptr(s string) *string { return &s }

// With builds feature with the ingest executions added to its deps when
// LECTERN_STATE_MACHINE_ARN is set: only the magazine API Lambda links the
// Step Functions client, so the other functions stay small (issue 15).
func With(getenv func(string) string, feature platform.New) platform.New {
	return func(d *platform.Deps) (platform.Module, error) {
		if d.Config.StateMachineArn != "" {
			cfg, err := awsenv.Config(getenv)
			if err != nil {
				return platform.Module{}, err
			}
			client := sfn.NewFromConfig(cfg, func(o *sfn.Options) {
				if u := awsenv.Endpoint(getenv, "sfn"); u != nil {
					o.BaseEndpoint = u
				}
			})
			d.Executions = New(client, d.Config.StateMachineArn)
		}
		return feature(d)
	}
}
