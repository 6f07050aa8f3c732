// Command authorizer is the HTTP API's Lambda authorizer: it allows a request
// only when its bearer token equals the SSM SecureString named by
// LECTERN_TOKEN_PARAMETER.
package main

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/lectern/lectern/shared/auth"
	"github.com/lectern/lectern/shared/awsenv"
)

func main() {
	cfg, err := awsenv.Config(os.Getenv)
	if err != nil {
		log.Fatalf("aws config: %v", err)
	}
	client := ssm.NewFromConfig(cfg, func(o *ssm.Options) {
		if e := awsenv.Endpoint(os.Getenv, "ssm"); e != nil {
			o.BaseEndpoint = e
		}
	})
	name := os.Getenv("LECTERN_TOKEN_PARAMETER")
	fromSSM := func(ctx context.Context) (string, error) {
		out, err := client.GetParameter(ctx, &ssm.GetParameterInput{Name: aws.String(name), WithDecryption: aws.Bool(true)})
		if err != nil {
			return "", err
		}
		return aws.ToString(out.Parameter.Value), nil
	}
	lambda.Start(auth.Authorizer(auth.Cached(fromSSM, 5*time.Minute, time.Now)))
}
