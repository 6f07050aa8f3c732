package tablevoices

import (
	"context"
	"crypto/rand"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/lectern/lectern/shared/store/dynamo"
	"github.com/lectern/lectern/shared/voices"
	"github.com/lectern/lectern/shared/voices/voicetest"
)

// TestContract runs the voice store contract on a fresh table of DynamoDB
// Local per case, the voice table's shape in template.yaml. It is never
// skipped: without the endpoint it fails and says how to start it.
func TestContract(t *testing.T) {
	endpoint := os.Getenv("LECTERN_TEST_DYNAMODB_ENDPOINT")
	if endpoint == "" {
		t.Fatal("LECTERN_TEST_DYNAMODB_ENDPOINT is not set: run `make test`, or " +
			"`eval $(bash infra/dynamodb-local.sh start)` before `go test`")
	}
	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
		// DynamoDB Local does not send the CRC32 header the SDK checks.
		DisableValidateResponseChecksum: true,
	})
	t.Run("dynamodb-local", func(t *testing.T) {
		voicetest.Run(t, func(t *testing.T) voices.Store {
			name := "lectern-voices-test-" + strings.ToLower(rand.Text())[:12]
			if err := dynamo.CreateTable(context.Background(), client, name); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if _, err := client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
					t.Errorf("delete table %s: %v", name, err)
				}
			})
			return New(dynamo.New(client, name))
		})
	})
}
