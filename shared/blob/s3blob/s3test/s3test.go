// Package s3test gives tests an S3 client and buckets on the MinIO that
// infra/minio.sh started (LECTERN_TEST_S3_* in the environment).
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// Client connects to the MinIO that infra/minio.sh started. The settings
// are the ones any S3-compatible server needs: path-style bucket addressing,
// and checksums only where an operation requires them.
func Client(t *testing.T, opts ...func(*s3.Options)) *s3.Client {
	t.Helper()
	endpoint := os.Getenv("LECTERN_TEST_S3_ENDPOINT")
	access := os.Getenv("LECTERN_TEST_S3_ACCESS_KEY")
	secret := os.Getenv("LECTERN_TEST_S3_SECRET_KEY")
	if endpoint == "" || access == "" || secret == "" {
		t.Fatal("LECTERN_TEST_S3_ENDPOINT, LECTERN_TEST_S3_ACCESS_KEY and LECTERN_TEST_S3_SECRET_KEY are not set: start MinIO with\n" +
			"\teval \"$(bash infra/minio.sh start)\"\n" +
			"(from the repository root; `bash infra/minio.sh stop` afterwards), or run `make test`")
	}
	o := s3.Options{
		Region:                     "us-east-1",
		BaseEndpoint:               aws.String(endpoint),
		Credentials:                credentials.NewStaticCredentialsProvider(access, secret, ""),
		UsePathStyle:               true,
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	}
	for _, fn := range opts {
		fn(&o)
	}
	return s3.New(o)
}

// Bucket creates a bucket for one test, versioned if asked (as the
// template's buckets are), and empties and removes it after.
func Bucket(t *testing.T, client *s3.Client, versioned bool) string {
	t.Helper()
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	bucket := "lectern-test-" + hex.EncodeToString(rnd[:])
	if _, err := client.CreateBucket(t.Context(), &s3.CreateBucketInput{Bucket: &bucket}); err != nil {
		t.Fatalf("create bucket %s: %v", bucket, err)
	}
	if versioned {
		if _, err := client.PutBucketVersioning(t.Context(), &s3.PutBucketVersioningInput{Bucket: &bucket,
			VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled}}); err != nil {
			t.Fatalf("version bucket %s: %v", bucket, err)
		}
	}
	t.Cleanup(func() {
		// t.Context is already cancelled when cleanups run.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := removeBucket(ctx, client, bucket); err != nil {
			t.Errorf("remove bucket %s: %v", bucket, err)
		}
	})
	return bucket
}

func removeBucket(ctx context.Context, client *s3.Client, bucket string) error {
	uploads, err := client.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: &bucket})
	if err != nil {
		return err
	}
	for _, u := range uploads.Uploads {
		if _, err := client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{
			Bucket: &bucket, Key: u.Key, UploadId: u.UploadId,
		}); err != nil {
			return err
		}
	}
	// Every version and delete marker, so a versioned bucket empties too.
	pages := s3.NewListObjectVersionsPaginator(client, &s3.ListObjectVersionsInput{Bucket: &bucket})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return err
		}
		var ids []types.ObjectIdentifier
		for _, v := range page.Versions {
			ids = append(ids, types.ObjectIdentifier{Key: v.Key, VersionId: v.VersionId})
		}
		for _, m := range page.DeleteMarkers {
			ids = append(ids, types.ObjectIdentifier{Key: m.Key, VersionId: m.VersionId})
		}
		for _, id := range ids {
			if _, err := client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: id.Key, VersionId: id.VersionId}); err != nil {
				return err
			}
		}
	}
	_, err = client.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: &bucket})
	return err
}
