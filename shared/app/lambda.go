package app

import (
	"context"
	"log/slog"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/lectern/lectern/shared/httpapi"
)

// LambdaHTTP serves the given features from a Lambda behind the HTTP API
// (payload 2.0). Callers were already checked by the API's authorizer.
func LambdaHTTP(version string, log *slog.Logger, features ...httpapi.Feature) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	mux := http.NewServeMux()
	httpapi.New(mux, version, log, features...)
	return httpadapter.NewV2(httpapi.LogRequests(log, mux)).ProxyWithContext
}

// StartLambda is every Lambda's main: it builds the AWS dependencies from the
// environment template.yaml sets, asks handler for the function's handler and
// starts it. A function that cannot start logs why and exits.
func StartLambda(handler func(*Deps) any) {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	deps, err := OpenAWSFromEnv(context.Background(), os.Getenv, log)
	if err != nil {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	lambda.Start(handler(deps))
}
