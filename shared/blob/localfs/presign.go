package localfs

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/blob"
)

// PathPrefix is where the local server mounts Handler. Presigned URLs are
//
//	<baseURL>/blobs/<escaped key>?op=get|put&exp=<unix seconds>&sig=<hex HMAC-SHA256>
//
// The signature covers the operation, the key, the expiry and, for PUT, the
// Content-Type the uploader must send: changing any of them, or using a GET
// URL to PUT, gives 403, as S3 does.
const PathPrefix = "/blobs/"

const (
	opGet  = "get"
	opPut  = "put"
	opPost = "post"
)

// PresignGet returns a signed URL that serves the object until ttl passes.
func (s *Store) PresignGet(_ context.Context, key string, ttl time.Duration) (string, error) {
	return s.presign(opGet, key, "", ttl)
}

// PresignPut returns a signed URL that accepts PUTs with exactly this
// Content-Type until ttl passes.
func (s *Store) PresignPut(_ context.Context, key, contentType string, ttl time.Duration) (string, error) {
	ct, err := blob.ContentType(contentType)
	if err != nil {
		return "", err
	}
	return s.presign(opPut, key, ct, ttl)
}

// PresignPost returns a form that POSTs to PathPrefix itself, as S3's goes
// to the bucket. Its fields are signed together, as S3's policy is: the key,
// the Content-Type, the size bound and the expiry.
func (s *Store) PresignPost(_ context.Context, key, contentType string, maxBytes int64, ttl time.Duration) (blob.PostForm, error) {
	ct, err := blob.ContentType(contentType)
	if err != nil {
		return blob.PostForm{}, err
	}
	if err := checkKey(key); err != nil {
		return blob.PostForm{}, err
	}
	if err := blob.CheckTTL(ttl); err != nil {
		return blob.PostForm{}, err
	}
	if err := blob.CheckMaxBytes(maxBytes); err != nil {
		return blob.PostForm{}, err
	}
	exp := s.clock().Add(ttl).Unix()
	return blob.PostForm{URL: s.baseURL + PathPrefix, Fields: map[string]string{
		"key":          key,
		"Content-Type": ct,
		"max":          strconv.FormatInt(maxBytes, 10),
		"exp":          strconv.FormatInt(exp, 10),
		"sig":          hex.EncodeToString(s.sign(opPost, key, exp, postSigned(ct, maxBytes))),
	}}, nil
}

// postSigned is what a POST's signature covers beyond the key and expiry:
// a content type holds no newline, so the bound after one is unambiguous.
func postSigned(ct string, maxBytes int64) string {
	return ct + "\n" + strconv.FormatInt(maxBytes, 10)
}

func (s *Store) presign(op, key, ct string, ttl time.Duration) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	if err := blob.CheckTTL(ttl); err != nil {
		return "", err
	}
	exp := s.clock().Add(ttl).Unix()
	q := url.Values{}
	q.Set("op", op)
	q.Set("exp", strconv.FormatInt(exp, 10))
	q.Set("sig", hex.EncodeToString(s.sign(op, key, exp, ct)))
	return s.baseURL + PathPrefix + escapeKey(key) + "?" + q.Encode(), nil
}

// sign is the HMAC over the request's identity. Keys and content types hold
// no control characters (blob.CheckKey, blob.ContentType), so newlines
// separate the fields unambiguously; the version tag lets the format change
// without old URLs passing as new ones.
func (s *Store) sign(op, key string, exp int64, ct string) []byte {
	m := hmac.New(sha256.New, s.secret)
	fmt.Fprintf(m, "lectern-blob-v1\n%s\n%s\n%d\n%s", op, key, exp, ct)
	return m.Sum(nil)
}

// escapeKey escapes each segment, keeping the slashes as path separators.
func escapeKey(key string) string {
	segs := strings.Split(key, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return strings.Join(segs, "/")
}

// Handler serves presigned URLs: it checks the signature (in constant time)
// and the expiry, then serves GET with the stored Content-Type (Range and
// conditional requests included) or stores a PUT body of at most the
// configured size. Mount it at PathPrefix without stripping the prefix.
func (s *Store) Handler() http.Handler {
	return http.HandlerFunc(s.serveSigned)
}

func (s *Store) serveSigned(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.URL.Path == PathPrefix {
		s.servePost(w, r)
		return
	}
	key, ok := strings.CutPrefix(r.URL.Path, PathPrefix)
	if !ok || checkKey(key) != nil {
		http.Error(w, "not a blob URL", http.StatusNotFound)
		return
	}
	q := r.URL.Query()
	op := q.Get("op")
	ct := ""
	switch {
	case op == opGet && r.Method == http.MethodGet:
	case op == opPut && r.Method == http.MethodPut:
		ct = r.Header.Get("Content-Type") // signed: it must match the presigned type
	default:
		http.Error(w, "this URL is not signed for "+r.Method, http.StatusForbidden)
		return
	}
	exp, errExp := strconv.ParseInt(q.Get("exp"), 10, 64)
	sig, errSig := hex.DecodeString(q.Get("sig"))
	if errExp != nil || errSig != nil || !hmac.Equal(sig, s.sign(op, key, exp, ct)) {
		http.Error(w, "signature does not match (URL changed, or wrong Content-Type)", http.StatusForbidden)
		return
	}
	if !s.clock().Before(time.Unix(exp, 0)) {
		http.Error(w, "URL has expired", http.StatusForbidden)
		return
	}
	if op == opGet {
		s.serveGet(w, r, key)
	} else {
		s.servePut(w, r, key, ct)
	}
}

func (s *Store) serveGet(w http.ResponseWriter, r *http.Request, key string) {
	f, info, err := s.open(r.Context(), key)
	if errors.Is(err, blob.ErrNotFound) {
		http.Error(w, "no such object", http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(w, "could not read the object", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	// The stored type is authoritative: set it so ServeContent doesn't sniff,
	// and tell the browser not to either (uploads are user-supplied bytes on
	// the app's own origin).
	w.Header().Set("Content-Type", info.ContentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", info.ModTime, f)
}

func (s *Store) servePut(w http.ResponseWriter, r *http.Request, key, ct string) {
	if r.ContentLength > s.maxPut {
		http.Error(w, fmt.Sprintf("body is larger than %d bytes", s.maxPut), http.StatusRequestEntityTooLarge)
		return
	}
	body := http.MaxBytesReader(w, r.Body, s.maxPut)
	err := s.Put(r.Context(), key, body, ct)
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		w.WriteHeader(http.StatusOK)
	case errors.As(err, &tooBig):
		http.Error(w, fmt.Sprintf("body is larger than %d bytes", s.maxPut), http.StatusRequestEntityTooLarge)
	case errors.Is(err, blob.ErrInvalidKey), errors.Is(err, blob.ErrInvalid):
		http.Error(w, err.Error(), http.StatusBadRequest)
	default:
		http.Error(w, "could not store the upload", http.StatusInternalServerError)
	}
}

// maxPostField bounds one form field before the file (keys are at most
// blob.MaxKeyBytes).
const maxPostField = 4 << 10

// servePost takes a presigned form upload as S3 does: the fields come
// first, the file last; the signature and expiry are checked before any of
// the file is read, and a file outside 1 to max bytes is refused (400) with
// nothing stored.
func (s *Store) servePost(w http.ResponseWriter, r *http.Request) {
	mr, err := r.MultipartReader()
	if err != nil {
		http.Error(w, "the body is not a multipart form", http.StatusBadRequest)
		return
	}
	fields := map[string]string{}
	for {
		part, err := mr.NextPart()
		if err != nil {
			http.Error(w, "the form has no file field", http.StatusBadRequest)
			return
		}
		if part.FormName() != "file" {
			v, err := io.ReadAll(io.LimitReader(part, maxPostField+1))
			if err != nil || len(v) > maxPostField {
				http.Error(w, "a form field is too long", http.StatusBadRequest)
				return
			}
			fields[part.FormName()] = string(v)
			continue
		}
		key, ct := fields["key"], fields["Content-Type"]
		maxBytes, errMax := strconv.ParseInt(fields["max"], 10, 64)
		exp, errExp := strconv.ParseInt(fields["exp"], 10, 64)
		sig, errSig := hex.DecodeString(fields["sig"])
		if errMax != nil || errExp != nil || errSig != nil || !hmac.Equal(sig, s.sign(opPost, key, exp, postSigned(ct, maxBytes))) {
			http.Error(w, "the form's signature does not match (key, Content-Type or bound changed)", http.StatusForbidden)
			return
		}
		if !s.clock().Before(time.Unix(exp, 0)) {
			http.Error(w, "the form has expired", http.StatusForbidden)
			return
		}
		body := &boundedReader{r: part, max: maxBytes}
		err = s.Put(r.Context(), key, body, ct)
		switch {
		case err == nil:
			w.WriteHeader(http.StatusNoContent)
		case errors.Is(err, errOutOfBounds):
			http.Error(w, fmt.Sprintf("the file must be 1 to %d bytes", maxBytes), http.StatusBadRequest)
		default:
			http.Error(w, "could not store the upload", http.StatusInternalServerError)
		}
		return
	}
}

var errOutOfBounds = errors.New("upload size out of bounds")

// boundedReader fails the read that passes max bytes, or ends with none, so
// Put (whole or not at all) stores nothing.
type boundedReader struct {
	r   io.Reader
	n   int64
	max int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > b.max || (err == io.EOF && b.n == 0) {
		return n, errOutOfBounds
	}
	return n, err
}
