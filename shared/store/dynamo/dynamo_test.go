package dynamo

import (
	"context"
	"crypto/rand"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/store/storetest"
)

// localClient connects to DynamoDB Local. The run is never skipped: without
// the endpoint the test fails and says how to start it.
func localClient(t *testing.T) *dynamodb.Client {
	t.Helper()
	endpoint := os.Getenv("LECTERN_TEST_DYNAMODB_ENDPOINT")
	if endpoint == "" {
		t.Fatal("LECTERN_TEST_DYNAMODB_ENDPOINT is not set: run `make test`, or " +
			"`eval $(bash infra/dynamodb-local.sh start)` before `go test`")
	}
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
		// DynamoDB Local does not send the CRC32 header the SDK checks.
		DisableValidateResponseChecksum: true,
	})
}

func TestContract(t *testing.T) {
	client := localClient(t)
	t.Run("dynamodb-local", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) store.Table {
			name := "lectern-test-" + strings.ToLower(rand.Text())[:12]
			ctx := context.Background()
			if err := CreateTable(ctx, client, name); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if _, err := client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil {
					t.Errorf("delete table %s: %v", name, err)
				}
			})
			return New(client, name)
		})
	})
}
