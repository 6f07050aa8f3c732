package awsenv

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigFromTheLambdaEnvironment(t *testing.T) {
	cfg, err := Config(env(map[string]string{
		"AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRET", "AWS_SESSION_TOKEN": "TOKEN",
	}))
	if err != nil {
		t.Fatal(err)
	}
	creds, err := cfg.Credentials.Retrieve(t.Context())
	if err != nil || cfg.Region != "eu-west-1" || creds.AccessKeyID != "AKID" || creds.SecretAccessKey != "SECRET" || creds.SessionToken != "TOKEN" {
		t.Fatalf("got region %q, %+v, %v", cfg.Region, creds, err)
	}
	if cfg.BaseEndpoint != nil {
		t.Fatalf("an endpoint was set: %s", *cfg.BaseEndpoint)
	}
}

func TestConfigNamesWhatIsMissing(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "s"}, "AWS_REGION is not set (the Lambda runtime sets it)"},
		{map[string]string{"AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "a"}, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set (the Lambda runtime sets the function role's credentials)"},
	} {
		if _, err := Config(env(tc.env)); err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

func TestEndpointsForLocalServers(t *testing.T) {
	get := env(map[string]string{
		"AWS_DEFAULT_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "s",
		"AWS_ENDPOINT_URL": "http://127.0.0.1:4566", "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:9000",
	})
	cfg, err := Config(get)
	if err != nil || cfg.Region != "us-east-1" || aws.ToString(cfg.BaseEndpoint) != "http://127.0.0.1:4566" {
		t.Fatalf("got %q %v %v", cfg.Region, cfg.BaseEndpoint, err)
	}
	if got := aws.ToString(Endpoint(get, "s3")); got != "http://127.0.0.1:9000" {
		t.Errorf("s3: %q", got)
	}
	if Endpoint(get, "dynamodb") != nil {
		t.Error("dynamodb got an endpoint of its own")
	}
}
