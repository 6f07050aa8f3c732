// Package s3blob is the blob port on an S3 bucket, for the AWS mode (and any
// S3-compatible server: build the client with UsePathStyle and
// RequestChecksumCalculation WhenRequired for those). Presigned URLs are
// SigV4 URLs from s3.PresignClient, so S3 itself checks them.
package s3blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/lectern/lectern/shared/blob"
)

// defaultPartSize is S3's smallest multipart part: Put buffers at most this
// much of a stream in memory at a time.
const defaultPartSize = 5 << 20

var _ blob.Store = (*Store)(nil)

// Store keeps objects in one bucket. It is safe for concurrent use.
type Store struct {
	client  *s3.Client
	presign *s3.PresignClient
	bucket  string
	// partSize and pageSize are fields (not constants) so tests can force
	// multipart uploads and listing pages on small data.
	partSize int
	pageSize int32
}

// New returns a store over bucket, which must exist.
func New(client *s3.Client, bucket string) *Store {
	return &Store{
		client:   client,
		presign:  s3.NewPresignClient(client),
		bucket:   bucket,
		partSize: defaultPartSize,
		pageSize: 1000, // S3's maximum
	}
}

// Put uploads the stream. Streams up to one part go in a single PutObject;
// longer ones as a multipart upload, one part in memory at a time. S3 makes
// the object visible only when the request (or the multipart completion)
// succeeds, so a failed Put leaves the previous object.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, contentType string) error {
	if err := blob.CheckKey(key); err != nil {
		return err
	}
	ct, err := blob.ContentType(contentType)
	if err != nil {
		return err
	}
	// Read the first part before any request: a PutObject needs a known
	// length (and, over plain HTTP, a seekable body to sign).
	part := make([]byte, s.partSize)
	n, err := io.ReadFull(r, part)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		_, err = s.client.PutObject(ctx, &s3.PutObjectInput{
			Bucket:      &s.bucket,
			Key:         &key,
			Body:        bytes.NewReader(part[:n]),
			ContentType: &ct,
		})
		if err != nil {
			return fmt.Errorf("put %s: %w", key, err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("put %s: %w", key, err)
	}
	return s.putMultipart(ctx, key, ct, part, r)
}

// putMultipart uploads first (a full part) and the rest of r as parts, and
// aborts the upload on any failure so no parts linger (S3 bills for them).
func (s *Store) putMultipart(ctx context.Context, key, ct string, first []byte, r io.Reader) (err error) {
	up, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{
		Bucket:      &s.bucket,
		Key:         &key,
		ContentType: &ct,
	})
	if err != nil {
		return fmt.Errorf("put %s: start multipart upload: %w", key, err)
	}
	defer func() {
		if err != nil {
			// The caller's context may be what failed; the abort must still run.
			abortCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			_, abortErr := s.client.AbortMultipartUpload(abortCtx, &s3.AbortMultipartUploadInput{
				Bucket: &s.bucket, Key: &key, UploadId: up.UploadId,
			})
			err = errors.Join(err, abortErr)
		}
	}()

	var parts []types.CompletedPart
	buf, n := first, len(first)
	for num := int32(1); n > 0; num++ {
		out, err := s.client.UploadPart(ctx, &s3.UploadPartInput{
			Bucket:     &s.bucket,
			Key:        &key,
			UploadId:   up.UploadId,
			PartNumber: aws.Int32(num),
			Body:       bytes.NewReader(buf[:n]),
		})
		if err != nil {
			return fmt.Errorf("put %s: part %d: %w", key, num, err)
		}
		parts = append(parts, types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(num)})
		// The buffer is free again once UploadPart returns.
		n, err = io.ReadFull(r, buf)
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return fmt.Errorf("put %s: %w", key, err)
		}
	}
	_, err = s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket:          &s.bucket,
		Key:             &key,
		UploadId:        up.UploadId,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	})
	if err != nil {
		return fmt.Errorf("put %s: complete multipart upload: %w", key, err)
	}
	return nil
}

// PutCache is Put: an S3 object is durable once its request succeeds, at no
// extra cost.
func (s *Store) PutCache(ctx context.Context, key string, r io.Reader, contentType string) error {
	return s.Put(ctx, key, r, contentType)
}

// Touch copies the object onto itself, which S3 allows only with new
// metadata: the same content type, given again. The copy's LastModified is
// now, which also restarts a lifecycle rule's count of days.
func (s *Store) Touch(ctx context.Context, key string) error {
	info, err := s.Head(ctx, key)
	if err != nil {
		return err
	}
	_, err = s.client.CopyObject(ctx, &s3.CopyObjectInput{
		Bucket:            &s.bucket,
		Key:               &key,
		CopySource:        aws.String(url.PathEscape(s.bucket) + "/" + escapeKey(key)),
		MetadataDirective: types.MetadataDirectiveReplace,
		ContentType:       &info.ContentType,
	})
	if err != nil {
		return fmt.Errorf("touch %s: %w", key, notFound(err))
	}
	return nil
}

// escapeKey URL-encodes a key for CopySource, keeping its slashes.
func escapeKey(key string) string {
	parts := strings.Split(key, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// Get opens the object as a stream straight from S3.
func (s *Store) Get(ctx context.Context, key string) (io.ReadCloser, blob.Info, error) {
	if err := blob.CheckKey(key); err != nil {
		return nil, blob.Info{}, err
	}
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		return nil, blob.Info{}, fmt.Errorf("get %s: %w", key, notFound(err))
	}
	return out.Body, blob.Info{
		Key:         key,
		Size:        aws.ToInt64(out.ContentLength),
		ContentType: aws.ToString(out.ContentType),
		ModTime:     aws.ToTime(out.LastModified),
	}, nil
}

// Head describes the object.
func (s *Store) Head(ctx context.Context, key string) (blob.Info, error) {
	if err := blob.CheckKey(key); err != nil {
		return blob.Info{}, err
	}
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		return blob.Info{}, fmt.Errorf("head %s: %w", key, notFound(err))
	}
	return blob.Info{
		Key:         key,
		Size:        aws.ToInt64(out.ContentLength),
		ContentType: aws.ToString(out.ContentType),
		ModTime:     aws.ToTime(out.LastModified),
	}, nil
}

// notFound turns S3's missing-object errors into blob.ErrNotFound. GET says
// NoSuchKey; HEAD has no body, so the SDK reports a bare NotFound. A missing
// bucket stays an error of its own: that is a deployment fault, not a miss.
func notFound(err error) error {
	var noKey *types.NoSuchKey
	var none *types.NotFound
	if errors.As(err, &noKey) || errors.As(err, &none) {
		return blob.ErrNotFound
	}
	return err
}

// Delete removes the object; S3 answers success for a missing key too.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := blob.CheckKey(key); err != nil {
		return err
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key}); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// Purge deletes every version of key and every delete marker over it, one
// listing page (and one DeleteObjects call) at a time. A plain DeleteObject
// on a versioned bucket only hides the object behind a marker; the bytes
// stay as a noncurrent version until a lifecycle rule expires them. On an
// unversioned bucket the object is listed as version "null".
func (s *Store) Purge(ctx context.Context, key string) error {
	if err := blob.CheckKey(key); err != nil {
		return err
	}
	in := &s3.ListObjectVersionsInput{Bucket: &s.bucket, Prefix: &key, MaxKeys: aws.Int32(min(s.pageSize, maxDeleteBatch))}
	for {
		page, err := s.client.ListObjectVersions(ctx, in)
		if err != nil {
			return fmt.Errorf("purge %s: list versions: %w", key, err)
		}
		var ids []types.ObjectIdentifier
		for _, v := range page.Versions {
			if aws.ToString(v.Key) == key { // the prefix also matches longer keys
				ids = append(ids, types.ObjectIdentifier{Key: v.Key, VersionId: v.VersionId})
			}
		}
		for _, m := range page.DeleteMarkers {
			if aws.ToString(m.Key) == key {
				ids = append(ids, types.ObjectIdentifier{Key: m.Key, VersionId: m.VersionId})
			}
		}
		if len(ids) > 0 {
			out, err := s.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: &s.bucket, Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)}})
			if err != nil {
				return fmt.Errorf("purge %s: %w", key, err)
			}
			if len(out.Errors) > 0 {
				e := out.Errors[0]
				return fmt.Errorf("purge %s: version %s: %s", key, aws.ToString(e.VersionId), aws.ToString(e.Message))
			}
		}
		if !aws.ToBool(page.IsTruncated) {
			return nil
		}
		in.KeyMarker, in.VersionIdMarker = page.NextKeyMarker, page.NextVersionIdMarker
	}
}

// maxDeleteBatch is how many keys one DeleteObjects call may name.
const maxDeleteBatch = 1000

// DeletePrefix lists the folder and removes its objects a batch at a time
// (one DeleteObjects call per listing page of up to 1000 keys).
func (s *Store) DeletePrefix(ctx context.Context, prefix string) (int, error) {
	if err := blob.CheckFolderPrefix(prefix); err != nil {
		return 0, err
	}
	pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{
		Bucket:  &s.bucket,
		Prefix:  &prefix,
		MaxKeys: aws.Int32(min(s.pageSize, maxDeleteBatch)),
	})
	n := 0
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return n, fmt.Errorf("delete %q: list: %w", prefix, err)
		}
		if len(page.Contents) == 0 {
			continue
		}
		ids := make([]types.ObjectIdentifier, 0, len(page.Contents))
		for _, o := range page.Contents {
			ids = append(ids, types.ObjectIdentifier{Key: o.Key})
		}
		out, err := s.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: &s.bucket,
			Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)},
		})
		if err != nil {
			return n, fmt.Errorf("delete %q: %w", prefix, err)
		}
		// Quiet mode lists only the keys that failed.
		if len(out.Errors) > 0 {
			e := out.Errors[0]
			return n + len(ids) - len(out.Errors), fmt.Errorf("delete %q: %d objects not deleted, first %s: %s", prefix, len(out.Errors), aws.ToString(e.Key), aws.ToString(e.Message))
		}
		n += len(ids)
	}
	return n, nil
}

// List pages through every match; S3 returns keys in byte order already.
func (s *Store) List(ctx context.Context, prefix string) ([]blob.Info, error) {
	if err := blob.CheckPrefix(prefix); err != nil {
		return nil, err
	}
	out := []blob.Info{}
	pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{
		Bucket:  &s.bucket,
		Prefix:  &prefix,
		MaxKeys: aws.Int32(s.pageSize),
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list %q: %w", prefix, err)
		}
		for _, o := range page.Contents {
			out = append(out, blob.Info{
				Key:     aws.ToString(o.Key),
				Size:    aws.ToInt64(o.Size),
				ModTime: aws.ToTime(o.LastModified),
			})
		}
	}
	return out, nil
}

// PresignPut signs a PutObject with the content type, so S3 refuses an
// upload with any other Content-Type header.
func (s *Store) PresignPut(ctx context.Context, key, contentType string, ttl time.Duration) (string, error) {
	if err := blob.CheckKey(key); err != nil {
		return "", err
	}
	ct, err := blob.ContentType(contentType)
	if err != nil {
		return "", err
	}
	if err := blob.CheckTTL(ttl); err != nil {
		return "", err
	}
	req, err := s.presign.PresignPutObject(ctx, &s3.PutObjectInput{
		Bucket:      &s.bucket,
		Key:         &key,
		ContentType: &ct,
	}, s3.WithPresignExpires(ttl))
	if err != nil {
		return "", fmt.Errorf("presign put %s: %w", key, err)
	}
	return req.URL, nil
}

// PresignGet signs a GetObject.
func (s *Store) PresignGet(ctx context.Context, key string, ttl time.Duration) (string, error) {
	if err := blob.CheckKey(key); err != nil {
		return "", err
	}
	if err := blob.CheckTTL(ttl); err != nil {
		return "", err
	}
	req, err := s.presign.PresignGetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key},
		s3.WithPresignExpires(ttl))
	if err != nil {
		return "", fmt.Errorf("presign get %s: %w", key, err)
	}
	return req.URL, nil
}

// PresignPost signs an S3 POST policy. S3 checks each condition on the
// form: the key (the SDK adds it), the Content-Type field, and the file's
// size by content-length-range, so an oversized upload is refused by S3
// itself, which a presigned PUT cannot say.
func (s *Store) PresignPost(ctx context.Context, key, contentType string, maxBytes int64, ttl time.Duration) (blob.PostForm, error) {
	if err := blob.CheckKey(key); err != nil {
		return blob.PostForm{}, err
	}
	ct, err := blob.ContentType(contentType)
	if err != nil {
		return blob.PostForm{}, err
	}
	if err := blob.CheckTTL(ttl); err != nil {
		return blob.PostForm{}, err
	}
	if err := blob.CheckMaxBytes(maxBytes); err != nil {
		return blob.PostForm{}, err
	}
	req, err := s.presign.PresignPostObject(ctx, &s3.PutObjectInput{Bucket: &s.bucket, Key: &key},
		func(o *s3.PresignPostOptions) {
			o.Expires = ttl
			o.Conditions = []any{
				map[string]string{"Content-Type": ct},
				[]any{"content-length-range", 1, maxBytes},
			}
		})
	if err != nil {
		return blob.PostForm{}, fmt.Errorf("presign post %s: %w", key, err)
	}
	// The SDK returns the signed fields; the form must also carry the
	// Content-Type the policy names.
	fields := maps.Clone(req.Values)
	fields["Content-Type"] = ct
	return blob.PostForm{URL: req.URL, Fields: fields}, nil
}
