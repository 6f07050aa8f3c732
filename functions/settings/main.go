// Command settings is the Lambda serving GET/PUT /api/settings.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app"
	"github.com/lectern/lectern/shared/httpapi"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	deps, err := app.OpenAWSFromEnv(context.Background(), os.Getenv, log)
	if err != nil {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	lambda.Start(app.LambdaHTTP(lectern.Version(), log, httpapi.Settings(deps.Settings)))
}
