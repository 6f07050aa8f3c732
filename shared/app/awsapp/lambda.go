package awsapp

import (
	"context"
	"log/slog"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/jobs/sqsjobs"
	"github.com/lectern/lectern/shared/platform"
)

// LambdaHTTP serves the given operations from a Lambda behind the HTTP API
// (payload 2.0). Callers were already checked by the API's authorizer.
func LambdaHTTP(version string, log *slog.Logger, ops ...httpapi.Operation) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	mux := http.NewServeMux()
	httpapi.New(mux, version, log, ops...)
	return httpadapter.NewV2(httpapi.LogRequests(log, mux)).ProxyWithContext
}

// StartPlatform is the platform Lambda's main: the given features'
// operations (health, version and job status), with document (the whole
// API's OpenAPI document) at /api/openapi.json.
func StartPlatform(version string, document []byte, features ...platform.New) {
	start(func(d *platform.Deps) (any, error) {
		modules, err := platform.Build(d, features...)
		if err != nil {
			return nil, err
		}
		mux := http.NewServeMux()
		httpapi.NewWithDocument(mux, version, d.Log, document, platform.Operations(modules)...)
		return httpadapter.NewV2(httpapi.LogRequests(d.Log, mux)).ProxyWithContext, nil
	})
}

// Worker is the job worker Lambda's handler: every given module's job kinds
// are registered, the same as in the local pool, and SQS delivers the jobs.
func Worker(d *platform.Deps, features ...platform.New) (func(context.Context, events.SQSEvent) (events.SQSEventResponse, error), error) {
	modules, err := platform.Build(d, features...)
	if err != nil {
		return nil, err
	}
	registry := jobs.NewRegistry()
	if err := platform.RegisterJobs(registry, modules); err != nil {
		return nil, err
	}
	runner := jobs.NewRunner(d.Table, registry, jobs.RunnerOptions{Log: d.Log})
	return sqsjobs.Handler(runner, d.Log), nil
}

// StartHTTP is an HTTP Lambda's main: it serves the operations of the given
// features.
func StartHTTP(version string, features ...platform.New) {
	start(func(d *platform.Deps) (any, error) {
		modules, err := platform.Build(d, features...)
		if err != nil {
			return nil, err
		}
		return LambdaHTTP(version, d.Log, platform.Operations(modules)...), nil
	})
}

// StartWorker is the job worker Lambda's main.
func StartWorker(features ...platform.New) {
	start(func(d *platform.Deps) (any, error) { return Worker(d, features...) })
}

// StartStep is a state machine task's main: handler makes the task's handler
// from the platform.
func StartStep(handler func(*platform.Deps) any) {
	start(func(d *platform.Deps) (any, error) { return handler(d), nil })
}

// start builds the AWS platform from the environment template.yaml sets,
// asks build for the function's handler and starts it. A function that
// cannot start logs why and exits.
func start(build func(*platform.Deps) (any, error)) {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	deps, err := OpenAWSFromEnv(context.Background(), os.Getenv, log)
	var handler any
	if err == nil {
		handler, err = build(deps)
	}
	if err != nil {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	lambda.Start(handler)
}
