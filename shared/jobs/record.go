package jobs

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/store"
)

const (
	// MaxDocumentSize bounds a payload or result: the record must stay well
	// under DynamoDB's 400 KB item limit.
	MaxDocumentSize = 256 << 10
	// MaxMessageLen bounds a progress message, in bytes.
	MaxMessageLen = 500
	// maxIDLen and maxKindLen keep keys and log lines short.
	maxIDLen   = 64
	maxKindLen = 64

	recordPKPrefix = "JOB#"
	recordSK       = "META"
)

// RecordKey is where a job's record lives in the table.
func RecordKey(id string) store.Key { return store.Key{PK: recordPKPrefix + id, SK: recordSK} }

// New makes a queued job record with a fresh id (128 random bits). The caller
// stores it (see Item) and hands it to a worker.
func New(kind string, payload json.RawMessage, now time.Time) (Job, error) {
	if err := ValidateKind(kind); err != nil {
		return Job{}, err
	}
	if len(payload) > 0 && !json.Valid(payload) {
		return Job{}, fmt.Errorf("payload of %s job is not JSON: %w", kind, ErrInvalid)
	}
	if len(payload) > MaxDocumentSize {
		return Job{}, fmt.Errorf("payload of %s job is %d bytes, limit %d: %w", kind, len(payload), MaxDocumentSize, ErrInvalid)
	}
	now = now.UTC()
	return Job{
		ID: NewID(), Kind: kind, Status: StatusQueued,
		Payload: payload, Created: now, Updated: now, Version: 1,
	}, nil
}

// NewID returns a random job id: 26 lower-case base32 characters from
// crypto/rand, so ids cannot be guessed from one another.
func NewID() string { return strings.ToLower(rand.Text()) }

// ValidateID refuses ids that New could not have made a key from: empty,
// too long, or with characters outside [A-Za-z0-9_-].
func ValidateID(id string) error {
	if id == "" || len(id) > maxIDLen || !plainName(id) {
		return fmt.Errorf("job id %q: %w", id, ErrInvalid)
	}
	return nil
}

// ValidateKind accepts names like "magazine.describe": 1..64 of [a-z0-9._-].
func ValidateKind(kind string) error {
	ok := kind != "" && len(kind) <= maxKindLen
	for _, c := range kind {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("job kind %q (want 1..%d of a-z 0-9 . _ -): %w", kind, maxKindLen, ErrInvalid)
	}
	return nil
}

func plainName(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Item encodes a job as its table item, at job.Version.
func Item(job Job) (store.Item, error) {
	data, err := json.Marshal(job)
	if err != nil {
		return store.Item{}, fmt.Errorf("encode job %s: %w", job.ID, err)
	}
	k := RecordKey(job.ID)
	return store.Item{PK: k.PK, SK: k.SK, Version: job.Version, Data: data}, nil
}

// Get reads a job record: the shared implementation of Queue.Get.
func Get(ctx context.Context, table store.Table, id string) (Job, error) {
	if err := ValidateID(id); err != nil {
		// A malformed id names no job: callers (HTTP) answer it like a missing one.
		return Job{}, fmt.Errorf("get job %q: malformed id: %w", id, ErrNotFound)
	}
	k := RecordKey(id)
	item, err := table.Get(ctx, k.PK, k.SK)
	if errors.Is(err, store.ErrNotFound) {
		return Job{}, fmt.Errorf("get job %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Job{}, fmt.Errorf("get job %s: %w", id, err)
	}
	var job Job
	if err := json.Unmarshal(item.Data, &job); err != nil {
		return Job{}, fmt.Errorf("decode job %s: %w", id, err)
	}
	job.Version = item.Version
	return job, nil
}
