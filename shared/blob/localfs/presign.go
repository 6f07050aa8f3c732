package localfs

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
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
	opGet = "get"
	opPut = "put"
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
