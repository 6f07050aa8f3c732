// Package awsenv builds a Lambda's AWS SDK configuration from the
// environment the Lambda runtime sets: the region, and the function role's
// credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN),
// which is where the SDK's default chain finds them in a Lambda too. It
// stands in for config.LoadDefaultConfig, whose package links the STS,
// SSO, SSO OIDC and sign-in clients of the other credential sources: 1.6 MB
// in every function, which the 15 MB budget of issue 15 cannot spare.
// AWS_ENDPOINT_URL and AWS_ENDPOINT_URL_<SERVICE> point the clients at
// local servers (MinIO, DynamoDB Local), as the SDK's own variables do.
package awsenv

import (
	"errors"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// Config is the SDK configuration of a Lambda. It fails, naming the
// variable, when the runtime did not set the region or the credentials.
func Config(getenv func(string) string) (aws.Config, error) {
	region := firstSet(getenv, "AWS_REGION", "AWS_DEFAULT_REGION")
	id, secret := getenv("AWS_ACCESS_KEY_ID"), getenv("AWS_SECRET_ACCESS_KEY")
	switch {
	case region == "":
		return aws.Config{}, errors.New("AWS_REGION is not set (the Lambda runtime sets it)")
	case id == "" || secret == "":
		return aws.Config{}, errors.New("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set (the Lambda runtime sets the function role's credentials)")
	}
	cfg := aws.Config{
		Region:      region,
		Credentials: aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(id, secret, getenv("AWS_SESSION_TOKEN"))),
	}
	if u := getenv("AWS_ENDPOINT_URL"); u != "" {
		cfg.BaseEndpoint = aws.String(u)
	}
	return cfg, nil
}

// Endpoint is the endpoint set for one service (AWS_ENDPOINT_URL_S3 for
// "s3"), or nil for the configuration's own.
func Endpoint(getenv func(string) string, service string) *string {
	if u := getenv("AWS_ENDPOINT_URL_" + strings.ToUpper(service)); u != "" {
		return aws.String(u)
	}
	return nil
}

func firstSet(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}
