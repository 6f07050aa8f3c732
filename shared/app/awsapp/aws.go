// Package awsapp starts a Lambda: it builds the AWS platform (DynamoDB, S3,
// SQS) from the environment template.yaml sets, mounts the modules the
// function's main passes and hands the handler to the Lambda runtime. It is
// apart from app, which holds the local binary's adapters (bbolt, SQLite, a
// blob folder), so no function links those; and it imports no feature, so a
// function links only its own module's graph. Which AWS calls a built
// function can make is read from its binary (infra/lambdacheck).
package awsapp

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/lectern/lectern/shared/awsenv"
	"github.com/lectern/lectern/shared/blob/s3blob"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/jobs/sqsjobs"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/speech/ear"
	"github.com/lectern/lectern/shared/store/dynamo"
	"github.com/lectern/lectern/shared/voices"
	"github.com/lectern/lectern/shared/voices/tablevoices"
)

// OpenAWSFromEnv builds the AWS-mode platform of a Lambda from the
// environment template.yaml sets.
func OpenAWSFromEnv(ctx context.Context, getenv func(string) string, log *slog.Logger) (*platform.Deps, error) {
	cfg, err := platform.FromEnv(getenv)
	if err != nil {
		return nil, err
	}
	cfg.Mode = platform.ModeAWS
	// Path-style S3 addresses reach an S3-compatible server on 127.0.0.1
	// (MinIO, when infra/test.sh runs the built functions).
	return openAWS(cfg, log, getenv, getenv("LECTERN_S3_PATH_STYLE") == "1")
}

func openAWS(cfg platform.Config, log *slog.Logger, getenv func(string) string, s3PathStyle bool) (*platform.Deps, error) {
	for _, v := range []struct{ name, value string }{
		{"LECTERN_TABLE", cfg.Table}, {"LECTERN_MEDIA_BUCKET", cfg.MediaBucket}, {"LECTERN_QUEUE_URL", cfg.QueueURL},
	} {
		if v.value == "" {
			return nil, fmt.Errorf("%s is not set (template.yaml sets it for every function)", v.name)
		}
	}
	awsCfg, err := awsenv.Config(getenv)
	if err != nil {
		return nil, fmt.Errorf("aws config: %w", err)
	}
	db := dynamodb.NewFromConfig(awsCfg, func(o *dynamodb.Options) { o.BaseEndpoint = or(awsenv.Endpoint(getenv, "dynamodb"), o.BaseEndpoint) })
	table := dynamo.New(db, cfg.Table)
	// The voice table is shared by every instance (template.yaml's
	// SharedVoiceTableName); features without voices run without it.
	var library voices.Store
	if cfg.VoiceTable != "" {
		library = tablevoices.New(dynamo.New(db, cfg.VoiceTable))
	}
	s3c := s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		o.UsePathStyle = s3PathStyle
		o.BaseEndpoint = or(awsenv.Endpoint(getenv, "s3"), o.BaseEndpoint)
	})
	uploads := cfg.UploadsBucket
	if uploads == "" {
		uploads = cfg.MediaBucket
	}
	return &platform.Deps{
		Config:   cfg,
		Log:      log,
		Clock:    time.Now,
		Table:    table,
		Blobs:    s3blob.New(s3c, cfg.MediaBucket),
		Uploads:  s3blob.New(s3c, uploads),
		Jobs:     sqsjobs.New(table, sqs.NewFromConfig(awsCfg, func(o *sqs.Options) { o.BaseEndpoint = or(awsenv.Endpoint(getenv, "sqs"), o.BaseEndpoint) }), cfg.QueueURL, time.Now),
		Settings: settings.NewService(table, cfg.Instance),
		Voices:   library,
		Piper:    speech.NewPiper(cfg.PiperPython),
		Ear:      &ear.Whisper{Python: cfg.EarPython},
	}, nil
}

// or is the first endpoint set.
func or(a, b *string) *string {
	if a != nil {
		return a
	}
	return b
}
