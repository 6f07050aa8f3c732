// Package blob owns the file port: objects by key with a content type, read as
// streams, listed by prefix, and reachable by presigned PUT/GET URLs. Adapters:
// a local folder (HMAC-signed URLs served by the local server) and S3.
package blob

import (
	"context"
	"io"
	"time"
)

// Info describes a stored object.
type Info struct {
	Key         string
	Size        int64
	ContentType string
	ModTime     time.Time
}

// Store is the port every feature uses for files (renders, crops, audio, uploads).
type Store interface {
	// Put stores the stream under key, replacing any object there.
	Put(ctx context.Context, key string, r io.Reader, contentType string) error
	// Get opens the object; the caller closes it. Missing: ErrNotFound.
	Get(ctx context.Context, key string) (io.ReadCloser, Info, error)
	// Head describes the object. Missing: ErrNotFound.
	Head(ctx context.Context, key string) (Info, error)
	// Delete removes the object; deleting a missing key succeeds.
	Delete(ctx context.Context, key string) error
	// List returns every object whose key starts with prefix, ordered by key.
	List(ctx context.Context, prefix string) ([]Info, error)
	// PresignPut returns a URL that accepts one HTTP PUT of the object until ttl passes.
	PresignPut(ctx context.Context, key, contentType string, ttl time.Duration) (string, error)
	// PresignGet returns a URL that serves the object by HTTP GET until ttl passes.
	PresignGet(ctx context.Context, key string, ttl time.Duration) (string, error)
}
