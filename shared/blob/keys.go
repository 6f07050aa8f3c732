package blob

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits every adapter applies, so a key or URL that works in one mode works
// in the other.
const (
	// MaxKeyBytes is S3's key limit.
	MaxKeyBytes = 1024
	// MaxSegmentBytes is the usual file-name limit (NAME_MAX), so every key
	// fits a local folder too.
	MaxSegmentBytes = 255
	// MinPresignTTL and MaxPresignTTL bound presigned URL lifetimes; S3 (SigV4)
	// accepts whole seconds from 1 s to 7 days.
	MinPresignTTL = time.Second
	MaxPresignTTL = 7 * 24 * time.Hour
	// DefaultContentType is stored when Put or PresignPut gets none.
	DefaultContentType = "application/octet-stream"
)

// CheckKey accepts keys that are relative slash-separated paths with no
// "." or ".." segments, no empty segments (leading, trailing or doubled "/"),
// no backslashes or control characters, valid UTF-8, within the length
// limits. Such a key names the same object in S3 and in a folder, and can
// never climb out of one. The error wraps ErrInvalidKey.
func CheckKey(key string) error {
	if key == "" {
		return fmt.Errorf("%w: empty", ErrInvalidKey)
	}
	if err := checkChars(key); err != nil {
		return err
	}
	for seg := range strings.SplitSeq(key, "/") {
		if err := checkSegment(key, seg); err != nil {
			return err
		}
	}
	return nil
}

// CheckPrefix accepts "" (everything) or a key prefix: the part up to the
// last "/" follows CheckKey's rules, the rest is any partial segment
// ("renders/0" matches "renders/0001.png"). The error wraps ErrInvalidKey.
func CheckPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	if err := checkChars(prefix); err != nil {
		return err
	}
	segs := strings.Split(prefix, "/")
	for _, seg := range segs[:len(segs)-1] {
		if err := checkSegment(prefix, seg); err != nil {
			return err
		}
	}
	return nil
}

func checkChars(key string) error {
	if len(key) > MaxKeyBytes {
		return fmt.Errorf("%w: %d bytes, more than %d", ErrInvalidKey, len(key), MaxKeyBytes)
	}
	if !utf8.ValidString(key) {
		return fmt.Errorf("%w: %q is not UTF-8", ErrInvalidKey, key)
	}
	for _, r := range key {
		// Backslash is a separator on Windows; control characters break
		// headers, XML listings and the signed strings of presigned URLs.
		if r == '\\' || r < 0x20 || r == 0x7f {
			return fmt.Errorf("%w: %q has a backslash or control character", ErrInvalidKey, key)
		}
	}
	return nil
}

func checkSegment(key, seg string) error {
	switch {
	case seg == "":
		return fmt.Errorf("%w: %q has an empty segment (leading, trailing or double slash)", ErrInvalidKey, key)
	case seg == "." || seg == "..":
		return fmt.Errorf("%w: %q has a %q segment", ErrInvalidKey, key, seg)
	case len(seg) > MaxSegmentBytes:
		return fmt.Errorf("%w: %q has a segment longer than %d bytes", ErrInvalidKey, key, MaxSegmentBytes)
	}
	return nil
}

// CheckTTL accepts presign lifetimes S3 accepts. The error wraps ErrInvalid.
func CheckTTL(ttl time.Duration) error {
	if ttl < MinPresignTTL || ttl > MaxPresignTTL {
		return fmt.Errorf("%w: presign ttl %s is outside [%s, %s]", ErrInvalid, ttl, MinPresignTTL, MaxPresignTTL)
	}
	return nil
}

// CheckMaxBytes accepts the size bound of a presigned POST: at least one
// byte. The error wraps ErrInvalid.
func CheckMaxBytes(maxBytes int64) error {
	if maxBytes < 1 {
		return fmt.Errorf("%w: an upload bound of %d bytes allows no file", ErrInvalid, maxBytes)
	}
	return nil
}

// ContentType returns the type to store for ct ("" becomes
// DefaultContentType). A type with control characters can't be sent as a
// header, so it is refused with an error wrapping ErrInvalid.
func ContentType(ct string) (string, error) {
	// HTTP trims header values, so surrounding spaces could never match the
	// signed value of a presigned PUT.
	ct = strings.TrimSpace(ct)
	if ct == "" {
		return DefaultContentType, nil
	}
	for _, r := range ct {
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("%w: content type %q has a control character", ErrInvalid, ct)
		}
	}
	return ct, nil
}

// CheckFolderPrefix is CheckPrefix for DeletePrefix: a non-empty prefix
// that ends with "/", so a removal takes one whole folder and never its
// neighbours or the whole store.
func CheckFolderPrefix(prefix string) error {
	if prefix == "" || !strings.HasSuffix(prefix, "/") {
		return fmt.Errorf("%w: prefix %q must name a folder (end with /)", ErrInvalidKey, prefix)
	}
	return CheckPrefix(prefix)
}
