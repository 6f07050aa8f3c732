// Command platform is the Lambda serving /api/health, /api/version and the
// OpenAPI document of the whole API (every feature is mounted so the document
// is complete; API Gateway routes only those paths here).
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	deps, err := app.OpenAWSFromEnv(context.Background(), os.Getenv, log)
	if err != nil {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	lambda.Start(app.LambdaHTTP(lectern.Version(), log, deps.Features()...))
}
