package awsapp

import "testing"

func TestOpenAWSNamesMissingConfiguration(t *testing.T) {
	env := map[string]string{"LECTERN_TABLE": "t", "LECTERN_MEDIA_BUCKET": "m"}
	_, err := OpenAWSFromEnv(t.Context(), func(k string) string { return env[k] }, nil)
	if err == nil || err.Error() != "LECTERN_QUEUE_URL is not set (template.yaml sets it for every function)" {
		t.Fatalf("got %v", err)
	}
}
