package blob_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/blob"
)

func TestCheckKey(t *testing.T) {
	for _, c := range []struct {
		name string
		key  string
		ok   bool
	}{
		{"plain path", "issues/42/pages/0001.png", true},
		{"spaces, unicode and dots inside names", "voices/Zoë reads/clip..v2 (1).wav", true},
		{"dot-prefixed name", "a/.hidden", true},
		{"longest key", strings.Repeat("k/", blob.MaxKeyBytes/2-1) + "kk", true},
		{"empty", "", false},
		{"absolute", "/a", false},
		{"trailing slash", "a/", false},
		{"double slash", "a//b", false},
		{"parent", "../a", false},
		{"parent inside", "a/../b", false},
		{"dot", "a/./b", false},
		{"backslash", `a\b`, false},
		{"control character", "a\tb", false},
		{"DEL", "a\x7fb", false},
		{"not UTF-8", "a\xc3", false},
		{"too long", strings.Repeat("k", blob.MaxKeyBytes+1), false},
		{"segment too long", strings.Repeat("s", blob.MaxSegmentBytes+1), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := blob.CheckKey(c.key)
			if c.ok && err != nil {
				t.Errorf("CheckKey(%q) = %v, want ok", c.key, err)
			}
			if !c.ok && !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("CheckKey(%q) = %v, want ErrInvalidKey", c.key, err)
			}
		})
	}
}

func TestCheckPrefix(t *testing.T) {
	for _, c := range []struct {
		prefix string
		ok     bool
	}{
		{"", true},
		{"renders/", true},
		{"renders/00", true},
		{"a/b/", true},
		{"a/..", true}, // a partial last segment only filters: it matches "a/..x"
		{"/", false},
		{"/a", false},
		{"../", false},
		{"a//", false},
		{"a/../b", false},
		{`a\b`, false},
	} {
		err := blob.CheckPrefix(c.prefix)
		if c.ok != (err == nil) || (err != nil && !errors.Is(err, blob.ErrInvalidKey)) {
			t.Errorf("CheckPrefix(%q) = %v, want ok=%v", c.prefix, err, c.ok)
		}
	}
}

func TestContentTypeAndTTL(t *testing.T) {
	if ct, err := blob.ContentType(""); err != nil || ct != blob.DefaultContentType {
		t.Errorf("empty content type = %q, %v", ct, err)
	}
	if ct, err := blob.ContentType(" text/plain; charset=utf-8 "); err != nil || ct != "text/plain; charset=utf-8" {
		t.Errorf("padded content type = %q, %v", ct, err)
	}
	if _, err := blob.ContentType("text/html\r\nX-Evil: 1"); !errors.Is(err, blob.ErrInvalid) {
		t.Errorf("content type with CRLF: %v, want ErrInvalid", err)
	}
	for ttl, ok := range map[time.Duration]bool{
		time.Second: true, blob.MaxPresignTTL: true,
		0: false, 999 * time.Millisecond: false, blob.MaxPresignTTL + 1: false,
	} {
		if err := blob.CheckTTL(ttl); ok != (err == nil) {
			t.Errorf("CheckTTL(%s) = %v, want ok=%v", ttl, err, ok)
		}
	}
}
