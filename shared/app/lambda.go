package app

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/aws/aws-lambda-go/events"
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
