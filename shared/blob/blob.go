// Package blob owns the file port: objects by key with a content type, read as
// streams, listed by prefix, and reachable by presigned PUT/GET URLs and
// presigned POST forms (browser uploads of bounded size). Adapters:
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
// Keys follow CheckKey in every adapter; any other key gets ErrInvalidKey.
type Store interface {
	// Put stores the stream under key, replacing any object there. The
	// replacement is whole or not at all: if r fails or ctx ends, the previous
	// object (or its absence) stays. An empty contentType means
	// DefaultContentType.
	Put(ctx context.Context, key string, r io.Reader, contentType string) error
	// PutCache is Put for an object that can be made again, such as a cache
	// entry. It may skip what makes a Put outlive a crash of the machine
	// (not of the process): a local disk's flush, which on a busy machine
	// can take longer than making the object did. After such a crash the
	// object may be missing, empty or cut short, so its reader checks what
	// it reads. Where a Put costs no more (S3), it is a Put.
	PutCache(ctx context.Context, key string, r io.Reader, contentType string) error
	// Touch sets the object's ModTime to now without changing its bytes or
	// content type: a mark of use, for evicting what was used least
	// recently. Missing: ErrNotFound.
	Touch(ctx context.Context, key string) error
	// Get opens the object; the caller closes it. Missing: ErrNotFound.
	Get(ctx context.Context, key string) (io.ReadCloser, Info, error)
	// Head describes the object. Missing: ErrNotFound.
	Head(ctx context.Context, key string) (Info, error)
	// Delete removes the object; deleting a missing key succeeds.
	Delete(ctx context.Context, key string) error
	// Purge removes the object and, where the store keeps versions (a
	// versioned S3 bucket), every earlier version of it and its delete
	// markers: for what must leave nothing behind once deleted, such as a
	// speaker's recording. Purging a missing key succeeds.
	Purge(ctx context.Context, key string) error
	// DeletePrefix removes every object whose key starts with prefix (as
	// List matches it) and answers how many it removed. The prefix must end
	// with "/" (a whole folder, so "issues/1/" never takes "issues/10/"),
	// else ErrInvalidKey. An object written while it runs may survive.
	DeletePrefix(ctx context.Context, prefix string) (int, error)
	// List returns every object whose key starts with prefix, ordered by key
	// (byte order). It fills Key, Size and ModTime but not ContentType: S3
	// listings don't carry it, so use Head when it matters.
	List(ctx context.Context, prefix string) ([]Info, error)
	// PresignPut returns a URL that accepts HTTP PUTs of the object until ttl
	// passes. The request must carry exactly this Content-Type header (it is
	// signed; empty means DefaultContentType). Like S3, the URL is not
	// single-use: treat it as a capability for the whole ttl. The ttl must be
	// within [MinPresignTTL, MaxPresignTTL] (else ErrInvalid); URLs carry
	// whole seconds.
	PresignPut(ctx context.Context, key, contentType string, ttl time.Duration) (string, error)
	// PresignGet returns a URL that serves the object by HTTP GET until ttl
	// passes; the response carries the stored Content-Type.
	PresignGet(ctx context.Context, key string, ttl time.Duration) (string, error)
	// PresignPost returns an HTML form upload (S3's POST policy) that the
	// server itself bounds: only this key, exactly this content type, and
	// 1 to maxBytes bytes, until ttl passes. Unlike a presigned PUT, a
	// larger file is refused by the server and nothing is stored. maxBytes
	// must be at least 1 (else ErrInvalid); ttl as for PresignPut.
	PresignPost(ctx context.Context, key, contentType string, maxBytes int64, ttl time.Duration) (PostForm, error)
}

// PostForm is a presigned upload form: POST to URL a multipart/form-data
// body with every field of Fields, then the file as the last field, named
// "file". A stored upload answers 204.
type PostForm struct {
	URL    string
	Fields map[string]string
}
