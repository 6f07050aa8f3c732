package s3blob

// An internal test: it shrinks the listing page size to prove paging.

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/blob/blobtest"
	"github.com/lectern/lectern/shared/blob/s3blob/s3test"
)

func TestContract(t *testing.T) {
	client := s3test.Client(t)
	t.Run("minio", func(t *testing.T) {
		blobtest.Run(t, blobtest.Harness{
			New: func(t *testing.T) blobtest.Fixture {
				// MinIO checks expiry against its real clock, so time is waited for.
				return blobtest.Fixture{Store: New(client, s3test.Bucket(t, client, false)), Elapse: time.Sleep}
			},
			Client:         &http.Client{Timeout: time.Minute},
			SignatureParam: "X-Amz-Signature",
		})
	})
}

func TestListPagesThroughEveryResult(t *testing.T) {
	client := s3test.Client(t)
	s := New(client, s3test.Bucket(t, client, false))
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
	client := s3test.Client(t)
	s := New(client, s3test.Bucket(t, client, false))
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
	client := s3test.Client(t)
	bucket := s3test.Bucket(t, client, false)
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
	client := s3test.Client(t, func(o *s3.Options) {
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenSupported
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenSupported
	})
	s := New(client, s3test.Bucket(t, client, false))
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
	s := New(s3test.Client(t), "lectern-no-such-bucket")
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

// TestPurgeVersionedBucket: the media bucket is versioned (template.yaml),
// where a delete only hides an object behind a marker. Purge leaves no
// version and no marker of the key, over listing pages of 2, and keeps a
// longer key the prefix listing also meets.
func TestPurgeVersionedBucket(t *testing.T) {
	client := s3test.Client(t)
	bucket := s3test.Bucket(t, client, true)
	s := New(client, bucket)
	s.pageSize = 2
	const key, neighbour = "voices/references/v-1.wav", "voices/references/v-1.wav.keep"
	versions := func(k string) int {
		out, err := client.ListObjectVersions(t.Context(), &s3.ListObjectVersionsInput{Bucket: &bucket, Prefix: aws.String(k)})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, v := range out.Versions {
			if aws.ToString(v.Key) == k {
				n++
			}
		}
		for _, m := range out.DeleteMarkers {
			if aws.ToString(m.Key) == k {
				n++
			}
		}
		return n
	}
	for i := range 3 {
		if err := s.Put(t.Context(), key, strings.NewReader(fmt.Sprintf("take %d", i)), "audio/wav"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete(t.Context(), key); err != nil { // a marker over three versions
		t.Fatal(err)
	}
	if err := s.Put(t.Context(), neighbour, strings.NewReader("neighbour"), "audio/wav"); err != nil {
		t.Fatal(err)
	}
	if n := versions(key); n != 4 {
		t.Fatalf("before purge: %d versions and markers, want 4", n)
	}
	if err := s.Purge(t.Context(), key); err != nil {
		t.Fatal(err)
	}
	if n := versions(key); n != 0 {
		t.Errorf("after purge: %d versions and markers of %s are left", n, key)
	}
	if n := versions(neighbour); n != 1 {
		t.Errorf("after purge: the neighbour has %d versions, want 1", n)
	}
}
