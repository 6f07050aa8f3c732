package s3blob

// An internal test: it shrinks the listing page size to prove paging.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/blob/blobtest"
)

// testClient connects to the MinIO that infra/minio.sh started. The settings
// are the ones any S3-compatible server needs: path-style bucket addressing,
// and checksums only where an operation requires them.
func testClient(t *testing.T, opts ...func(*s3.Options)) *s3.Client {
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

// newBucket creates a bucket for one test and empties and removes it after.
func newBucket(t *testing.T, client *s3.Client) string {
	t.Helper()
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	bucket := "lectern-test-" + hex.EncodeToString(rnd[:])
	if _, err := client.CreateBucket(t.Context(), &s3.CreateBucketInput{Bucket: &bucket}); err != nil {
		t.Fatalf("create bucket %s: %v", bucket, err)
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
	pages := s3.NewListObjectsV2Paginator(client, &s3.ListObjectsV2Input{Bucket: &bucket})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, o := range page.Contents {
			if _, err := client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: o.Key}); err != nil {
				return err
			}
		}
	}
	_, err = client.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: &bucket})
	return err
}

func TestContract(t *testing.T) {
	client := testClient(t)
	t.Run("minio", func(t *testing.T) {
		blobtest.Run(t, blobtest.Harness{
			New: func(t *testing.T) blobtest.Fixture {
				// MinIO checks expiry against its real clock, so time is waited for.
				return blobtest.Fixture{Store: New(client, newBucket(t, client)), Elapse: time.Sleep}
			},
			Client:         &http.Client{Timeout: time.Minute},
			SignatureParam: "X-Amz-Signature",
		})
	})
}

func TestListPagesThroughEveryResult(t *testing.T) {
	client := testClient(t)
	s := New(client, newBucket(t, client))
	s.pageSize = 2
	var want []string
	for i := range 7 {
		key := fmt.Sprintf("pages/%02d.png", i)
		want = append(want, key)
		if err := s.Put(t.Context(), key, strings.NewReader("png"), "image/png"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Put(t.Context(), "pagesX", strings.NewReader("neighbour"), ""); err != nil {
		t.Fatal(err)
	}
	infos, err := s.List(t.Context(), "pages/")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range infos {
		got = append(got, in.Key)
	}
	if !slices.Equal(got, want) {
		t.Errorf("list over pages of 2 = %q, want %q", got, want)
	}
}

func TestDeletePrefixPagesThroughEveryResult(t *testing.T) {
	client := testClient(t)
	s := New(client, newBucket(t, client))
	s.pageSize = 2 // one DeleteObjects call per listing page
	for i := range 7 {
		if err := s.Put(t.Context(), fmt.Sprintf("pages/%02d.png", i), strings.NewReader("png"), "image/png"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Put(t.Context(), "pagesX", strings.NewReader("neighbour"), ""); err != nil {
		t.Fatal(err)
	}
	if n, err := s.DeletePrefix(t.Context(), "pages/"); err != nil || n != 7 {
		t.Fatalf("delete prefix = %d, %v; want 7", n, err)
	}
	infos, err := s.List(t.Context(), "")
	if err != nil || len(infos) != 1 || infos[0].Key != "pagesX" {
		t.Errorf("left %+v, %v; want only the neighbour", infos, err)
	}
}

// Around the part size: one PutObject below it, a multipart upload at and
// above it, and no unfinished upload left behind either way.
func TestPutAroundThePartSize(t *testing.T) {
	client := testClient(t)
	bucket := newBucket(t, client)
	s := New(client, bucket)
	for _, size := range []int{defaultPartSize - 1, defaultPartSize, 2 * defaultPartSize, 2*defaultPartSize + 1} {
		data := make([]byte, size)
		_, _ = rand.Read(data)
		key := fmt.Sprintf("sizes/%d", size)
		if err := s.Put(t.Context(), key, struct{ io.Reader }{bytes.NewReader(data)}, "application/octet-stream"); err != nil {
			t.Fatalf("put %d bytes: %v", size, err)
		}
		rc, info, err := s.Get(t.Context(), key)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || !bytes.Equal(got, data) || info.Size != int64(size) {
			t.Errorf("%d bytes: read back %d (info %d), err %v", size, len(got), info.Size, err)
		}
		// S3 gives multipart objects an ETag ending in -<parts>.
		head, err := client.HeadObject(t.Context(), &s3.HeadObjectInput{Bucket: &bucket, Key: &key})
		if err != nil {
			t.Fatal(err)
		}
		wantParts := ""
		if size >= defaultPartSize {
			wantParts = fmt.Sprintf("-%d\"", (size+defaultPartSize-1)/defaultPartSize)
		}
		if etag := aws.ToString(head.ETag); wantParts != "" && !strings.HasSuffix(etag, wantParts) ||
			wantParts == "" && strings.Contains(etag, "-") {
			t.Errorf("%d bytes: ETag %s, want a multipart suffix %q", size, etag, wantParts)
		}
	}
	// A multipart Put that fails mid-way must abort its upload.
	failing := io.MultiReader(io.LimitReader(rand.Reader, 2*defaultPartSize+10), failReader{})
	if err := s.Put(t.Context(), "sizes/failed", failing, ""); err == nil {
		t.Fatal("put from a failing reader succeeded")
	}
	uploads, err := client.ListMultipartUploads(t.Context(), &s3.ListMultipartUploadsInput{Bucket: &bucket})
	if err != nil {
		t.Fatal(err)
	}
	if len(uploads.Uploads) != 0 {
		t.Errorf("%d multipart uploads left unfinished", len(uploads.Uploads))
	}
}

// The AWS wiring builds its client with the SDK's defaults (checksums
// whenever supported); presigned PUTs and multipart Puts must work with it.
func TestDefaultChecksumClient(t *testing.T) {
	client := testClient(t, func(o *s3.Options) {
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenSupported
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenSupported
	})
	s := New(client, newBucket(t, client))
	data := make([]byte, defaultPartSize+100)
	_, _ = rand.Read(data)
	if err := s.Put(t.Context(), "big", struct{ io.Reader }{bytes.NewReader(data)}, "audio/mpeg"); err != nil {
		t.Fatalf("multipart put: %v", err)
	}
	u, err := s.PresignPut(t.Context(), "small.txt", "text/plain", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPut, u, strings.NewReader("hello"))
	req.Header.Set("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("presigned PUT: %d %s", resp.StatusCode, body)
	}
	for key, size := range map[string]int64{"big": int64(len(data)), "small.txt": 5} {
		if info, err := s.Head(t.Context(), key); err != nil || info.Size != size {
			t.Errorf("head %s = %+v, %v; want %d bytes", key, info, err, size)
		}
	}
}

// A missing bucket is a broken deployment, not a missing object: callers
// must not answer 404 for it.
func TestMissingBucketIsNotErrNotFound(t *testing.T) {
	s := New(testClient(t), "lectern-no-such-bucket")
	_, _, err := s.Get(t.Context(), "k")
	if err == nil || errors.Is(err, blob.ErrNotFound) {
		t.Errorf("get from a missing bucket: %v; want an error other than ErrNotFound", err)
	}
	// GetObject has no modelled NoSuchBucket type; the code says it.
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "NoSuchBucket" {
		t.Errorf("error %v does not say the bucket is missing", err)
	}
}

type failReader struct{}

func (failReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }
