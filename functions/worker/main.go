// Command worker is the Lambda that runs background jobs delivered by the SQS
// job queue, reporting failed records for redelivery (partial batch failure).
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/lectern/lectern/shared/app"
	"github.com/lectern/lectern/shared/jobs/sqsjobs"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	deps, err := app.OpenAWSFromEnv(context.Background(), os.Getenv, log)
	if err != nil {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	lambda.Start(sqsjobs.Handler(deps.Runner(), log))
}
