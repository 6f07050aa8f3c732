// Package localfs is the blob port on a local folder, for the embedded mode.
//
// Layout under the root folder:
//
//	objects/<key>   the bytes, as a plain file
//	meta/<key>      the content type (JSON sidecar)
//	types/<digest>  one sidecar per content type, which meta/<key> files are
//	                hard links to; never written in place
//	tmp/            writes in progress; each is renamed into place when whole
//
// Every file operation goes through an os.Root, so even a symlink planted in
// the folder cannot lead outside it; keys are also checked up front
// (blob.CheckKey). Presigned URLs are HMAC-SHA256-signed links to Handler,
// which the local server mounts at /blobs/ (see presign.go).
//
// One difference from S3 stays: a folder cannot hold both an object "a" and
// an object "a/b", so the second Put of such a pair fails with an error
// wrapping blob.ErrInvalidKey. Lectern's keys never nest that way.
package localfs

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lectern/lectern/shared/blob"
)

const (
	objectsDir = "objects"
	metaDir    = "meta"
	typesDir   = "types"
	tmpDir     = "tmp"
	// DefaultMaxPutBytes bounds one upload through a presigned PUT URL.
	DefaultMaxPutBytes = 1 << 30
	// staleTemp is how old a leftover temp file must be before New removes it:
	// old enough that no live writer (this or another process) still owns it.
	staleTemp = 24 * time.Hour
)

var _ blob.Store = (*Store)(nil)

// Store keeps objects in a folder. It is safe for concurrent use.
type Store struct {
	root    *os.Root
	baseURL string
	secret  []byte
	clock   func() time.Time
	maxPut  int64
	// locks pair each object's bytes with its sidecar: a writer renames both
	// while holding its key's lock, and a reader opens both under it, so
	// nobody sees one writer's bytes with another's content type. (Striped by
	// key hash; this covers one process, which is how the local mode runs.)
	locks [64]sync.Mutex
}

// Option adjusts a Store.
type Option func(*Store)

// WithMaxPutBytes bounds uploads through presigned PUT URLs (default
// DefaultMaxPutBytes); a larger body is refused with 413.
func WithMaxPutBytes(n int64) Option { return func(s *Store) { s.maxPut = n } }

// New opens (creating if needed) a store in dir. baseURL is where the local
// server that mounts Handler is reachable, like "http://127.0.0.1:8080".
// secret signs presigned URLs (at least 32 bytes; keep it across restarts so
// URLs stay valid). clock is the time URLs are signed and checked against.
func New(dir, baseURL string, secret []byte, clock func() time.Time, opts ...Option) (*Store, error) {
	if len(secret) < 32 {
		return nil, fmt.Errorf("localfs: signing secret has %d bytes, need at least 32", len(secret))
	}
	if clock == nil {
		return nil, errors.New("localfs: clock is nil")
	}
	for _, sub := range []string{objectsDir, metaDir, typesDir, tmpDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return nil, fmt.Errorf("localfs: create %s: %w", dir, err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("localfs: open %s: %w", dir, err)
	}
	s := &Store{
		root:    root,
		baseURL: strings.TrimSuffix(baseURL, "/"),
		secret:  slices.Clone(secret),
		clock:   clock,
		maxPut:  DefaultMaxPutBytes,
	}
	for _, o := range opts {
		o(s)
	}
	s.removeStaleTemps()
	return s, nil
}

// Close releases the folder handle.
func (s *Store) Close() error { return s.root.Close() }

// removeStaleTemps deletes temp files a crashed writer left behind.
func (s *Store) removeStaleTemps() { _, _ = s.removeTemps(staleTemp) }

// SweepTemps deletes every temp file, whatever its age, and answers how
// many. Only a process that alone writes to the folder may call it (the
// local server at start, holding the data folder's lock): any other
// writer's upload in progress would be cut.
func (s *Store) SweepTemps() (int, error) { return s.removeTemps(0) }

func (s *Store) removeTemps(olderThan time.Duration) (int, error) {
	entries, err := fs.ReadDir(s.root.FS(), tmpDir)
	if err != nil {
		return 0, fmt.Errorf("localfs: read temp folder: %w", err)
	}
	n := 0
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) >= olderThan {
			if s.root.Remove(path.Join(tmpDir, e.Name())) == nil {
				n++
			}
		}
	}
	return n, nil
}

// checkKey applies the port's key rules, then the platform's idea of a local
// path (which on Windows also refuses names like NUL), before any file access.
func checkKey(key string) error {
	if err := blob.CheckKey(key); err != nil {
		return err
	}
	if !filepath.IsLocal(filepath.FromSlash(key)) {
		return fmt.Errorf("%w: %q is not a local path here", blob.ErrInvalidKey, key)
	}
	return nil
}

func objectPath(key string) string { return filepath.FromSlash(path.Join(objectsDir, key)) }
func metaPath(key string) string   { return filepath.FromSlash(path.Join(metaDir, key)) }

func (s *Store) lock(key string) func() {
	h := fnv.New32a()
	h.Write([]byte(key))
	m := &s.locks[h.Sum32()%uint32(len(s.locks))]
	m.Lock()
	return m.Unlock
}

type meta struct {
	ContentType string `json:"content_type"`
}

// Put writes the bytes and the sidecar to temp files, then renames both into
// place, so readers see the old object or the new one, never a part.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, contentType string) error {
	return s.put(ctx, key, r, contentType, true)
}

// PutCache is Put without flushing the bytes to disk before the rename: the
// flush waits for the disk (and, on ext4, for every other write pending in
// the file system's journal), which on a busy machine takes longer than
// speaking a sentence. Readers still never see a part while the machine
// runs; after a crash the object may be empty or cut short.
func (s *Store) PutCache(ctx context.Context, key string, r io.Reader, contentType string) error {
	return s.put(ctx, key, r, contentType, false)
}

func (s *Store) put(ctx context.Context, key string, r io.Reader, contentType string, flush bool) error {
	if err := checkKey(key); err != nil {
		return err
	}
	ct, err := blob.ContentType(contentType)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	dataTmp, err := s.writeTemp(ctxReader{ctx, r}, flush)
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	defer s.root.Remove(dataTmp) // fails harmlessly once renamed
	sidecar, err := json.Marshal(meta{ContentType: ct})
	if err != nil {
		return err
	}
	metaTmp, err := s.sidecarTemp(ct, sidecar)
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	defer s.root.Remove(metaTmp)

	unlock := s.lock(key)
	defer unlock()
	if err := s.moveIntoPlace(metaTmp, metaPath(key)); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	if err := s.moveIntoPlace(dataTmp, objectPath(key)); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

// writeTemp copies r into a new file under tmp/ and, if flush, flushes it to
// disk, so a crash after the rename can't leave an empty or partial object.
func (s *Store) writeTemp(r io.Reader, flush bool) (name string, err error) {
	name = tempName()
	f, err := s.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	_, err = io.Copy(f, r)
	if err == nil && flush {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = s.root.Remove(name)
		return "", err
	}
	return name, nil
}

func tempName() string {
	var rnd [12]byte
	_, _ = rand.Read(rnd[:])
	return filepath.Join(tmpDir, hex.EncodeToString(rnd[:]))
}

// sidecarTemp makes a temp sidecar holding sidecar, the JSON of content type
// ct. Objects share a few content types, so it is a hard link to one file per
// type: on some file systems a new file costs more than a small object's
// bytes (about 1 ms of CPU a file on the CI machine's ext4, the speech
// renderer's chunk cache making one per sentence), a link a few µs. Where
// links fail (a file system without them, a type at its link limit) it
// writes a file of its own, as before.
func (s *Store) sidecarTemp(ct string, sidecar []byte) (string, error) {
	digest := sha256.Sum256([]byte(ct))
	shared := filepath.Join(typesDir, hex.EncodeToString(digest[:16]))
	name := tempName()
	err := s.root.Link(shared, name)
	if isMissing(err) { // the type's first object
		if err = s.writeTypeFile(shared, sidecar); err == nil {
			err = s.root.Link(shared, name)
		}
	}
	if err == nil {
		return name, nil
	}
	return s.writeTemp(bytes.NewReader(sidecar), true)
}

// writeTypeFile stores a content type's shared sidecar. Two writers racing
// write the same bytes, and links made to the one replaced keep its inode.
func (s *Store) writeTypeFile(shared string, sidecar []byte) error {
	tmp, err := s.writeTemp(bytes.NewReader(sidecar), true)
	if err != nil {
		return err
	}
	defer s.root.Remove(tmp)
	return s.moveIntoPlace(tmp, shared)
}

// moveIntoPlace renames a temp file to dst, creating parent folders. A
// concurrent Delete may prune a parent between the two steps, so a vanished
// folder is recreated a few times.
func (s *Store) moveIntoPlace(tmp, dst string) error {
	var err error
	for range 5 {
		if err = s.root.MkdirAll(filepath.Dir(dst), 0o700); err == nil {
			if err = s.root.Rename(tmp, dst); err == nil {
				return nil
			}
		}
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if isNestingConflict(err) {
		return fmt.Errorf("%w: a folder can't hold both an object and objects under it (%v)", blob.ErrInvalidKey, err)
	}
	return err
}

// isNestingConflict recognises the errors of an object where a folder is
// needed (ENOTDIR) or a folder where an object is needed (EISDIR, EEXIST,
// ENOTEMPTY from rename).
func isNestingConflict(err error) bool {
	return errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EISDIR) ||
		errors.Is(err, syscall.EEXIST) || errors.Is(err, syscall.ENOTEMPTY)
}

// isMissing covers a missing file and a path through a file ("a/b" when "a"
// is an object): both mean no object at the key.
func isMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// Get opens the object.
func (s *Store) Get(ctx context.Context, key string) (io.ReadCloser, blob.Info, error) {
	f, info, err := s.open(ctx, key)
	if err != nil {
		return nil, blob.Info{}, err
	}
	return f, info, nil
}

// open is Get with the concrete file, which Handler needs for Range support.
func (s *Store) open(ctx context.Context, key string) (*os.File, blob.Info, error) {
	if err := checkKey(key); err != nil {
		return nil, blob.Info{}, err
	}
	if err := ctx.Err(); err != nil {
		return nil, blob.Info{}, err
	}
	unlock := s.lock(key)
	f, err := s.root.Open(objectPath(key))
	if err != nil {
		unlock()
		if isMissing(err) {
			return nil, blob.Info{}, fmt.Errorf("get %s: %w", key, blob.ErrNotFound)
		}
		return nil, blob.Info{}, fmt.Errorf("get %s: %w", key, err)
	}
	ct, err := s.contentType(key)
	unlock()
	if err != nil {
		f.Close()
		return nil, blob.Info{}, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, blob.Info{}, fmt.Errorf("get %s: %w", key, err)
	}
	if !st.Mode().IsRegular() { // a folder of other objects
		f.Close()
		return nil, blob.Info{}, fmt.Errorf("get %s: %w", key, blob.ErrNotFound)
	}
	return f, blob.Info{Key: key, Size: st.Size(), ContentType: ct, ModTime: st.ModTime()}, nil
}

// contentType reads the sidecar. A file without one (copied in by hand) is
// served as DefaultContentType.
func (s *Store) contentType(key string) (string, error) {
	raw, err := s.root.ReadFile(metaPath(key))
	if isMissing(err) {
		return blob.DefaultContentType, nil
	}
	if err != nil {
		return "", fmt.Errorf("read content type of %s: %w", key, err)
	}
	var m meta
	if err := json.Unmarshal(raw, &m); err != nil || m.ContentType == "" {
		return "", fmt.Errorf("content type sidecar of %s is damaged: %q", key, raw)
	}
	return m.ContentType, nil
}

// Head describes the object.
func (s *Store) Head(ctx context.Context, key string) (blob.Info, error) {
	if err := checkKey(key); err != nil {
		return blob.Info{}, err
	}
	if err := ctx.Err(); err != nil {
		return blob.Info{}, err
	}
	unlock := s.lock(key)
	defer unlock()
	st, err := s.root.Stat(objectPath(key))
	if isMissing(err) || (err == nil && !st.Mode().IsRegular()) {
		return blob.Info{}, fmt.Errorf("head %s: %w", key, blob.ErrNotFound)
	}
	if err != nil {
		return blob.Info{}, fmt.Errorf("head %s: %w", key, err)
	}
	ct, err := s.contentType(key)
	if err != nil {
		return blob.Info{}, err
	}
	return blob.Info{Key: key, Size: st.Size(), ContentType: ct, ModTime: st.ModTime()}, nil
}

// Touch sets the object file's modification time to now. Head's check
// comes first: Chtimes would also take a folder of other objects.
func (s *Store) Touch(ctx context.Context, key string) error {
	if _, err := s.Head(ctx, key); err != nil {
		return err
	}
	now := time.Now()
	if err := s.root.Chtimes(objectPath(key), now, now); err != nil {
		if isMissing(err) { // deleted since
			err = blob.ErrNotFound
		}
		return fmt.Errorf("touch %s: %w", key, err)
	}
	return nil
}

// Purge is Delete: a local folder keeps no versions.
func (s *Store) Purge(ctx context.Context, key string) error { return s.Delete(ctx, key) }

// Delete removes the object and its sidecar, then prunes folders left empty
// so the key space stays as free as S3's (an object "a" can follow "a/b").
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	unlock := s.lock(key)
	st, err := s.root.Lstat(objectPath(key))
	if err == nil && st.IsDir() { // a folder of other objects, not an object
		unlock()
		return nil
	}
	errData := s.root.Remove(objectPath(key))
	errMeta := s.root.Remove(metaPath(key))
	unlock()
	for _, err := range []error{errData, errMeta} {
		if err != nil && !isMissing(err) {
			return fmt.Errorf("delete %s: %w", key, err)
		}
	}
	s.prune(objectsDir, key)
	s.prune(metaDir, key)
	return nil
}

// DeletePrefix deletes every object List finds under the folder prefix.
func (s *Store) DeletePrefix(ctx context.Context, prefix string) (int, error) {
	if err := blob.CheckFolderPrefix(prefix); err != nil {
		return 0, err
	}
	infos, err := s.List(ctx, prefix)
	if err != nil {
		return 0, err
	}
	for i, in := range infos {
		if err := s.Delete(ctx, in.Key); err != nil {
			return i, err
		}
	}
	return len(infos), nil
}

// prune removes the key's parent folders while they are empty. Remove of a
// folder fails unless it is empty, so a concurrent Put's folder survives
// (and Put recreates one pruned under it).
func (s *Store) prune(tree, key string) {
	for dir := path.Dir(key); dir != "."; dir = path.Dir(dir) {
		if s.root.Remove(filepath.FromSlash(path.Join(tree, dir))) != nil {
			return
		}
	}
}

// List walks only the folder named by the prefix's complete segments and
// sorts at the end: a walk meets "a/1" before "a-b", byte order doesn't.
func (s *Store) List(ctx context.Context, prefix string) ([]blob.Info, error) {
	if err := blob.CheckPrefix(prefix); err != nil {
		return nil, err
	}
	start := objectsDir
	if i := strings.LastIndex(prefix, "/"); i >= 0 {
		start = path.Join(objectsDir, prefix[:i])
		if !filepath.IsLocal(filepath.FromSlash(prefix[:i])) {
			return nil, fmt.Errorf("%w: prefix %q is not a local path here", blob.ErrInvalidKey, prefix)
		}
	}
	out := []blob.Info{}
	err := fs.WalkDir(s.root.FS(), start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if isMissing(err) { // no such folder, or it vanished mid-walk
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		key := strings.TrimPrefix(p, objectsDir+"/")
		if d.IsDir() {
			if p != start && !strings.HasPrefix(key+"/", prefix) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasPrefix(key, prefix) {
			return nil
		}
		info, err := d.Info()
		if isMissing(err) { // deleted since the folder was read
			return nil
		}
		if err != nil {
			return err
		}
		out = append(out, blob.Info{Key: key, Size: info.Size(), ModTime: info.ModTime()})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", prefix, err)
	}
	slices.SortFunc(out, func(a, b blob.Info) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// ctxReader stops a long copy when the caller gives up.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
