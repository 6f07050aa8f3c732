package app

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/voices/remotevoices"
	"github.com/lectern/lectern/shared/voices/sqlitevoices"
)

func TestOpenVoicesTakesAFileOrAnotherInstancesURL(t *testing.T) {
	dir := t.TempDir()
	self := "http://127.0.0.1:8080"
	for _, tc := range []struct {
		voices string
		remote bool
	}{
		{"", false},
		{filepath.Join(dir, "shared.db"), false},
		{"http://127.0.0.1:8081", true},
		{"https://127.0.0.1:8443/lectern/", true},
	} {
		s, closer, err := openVoices(platform.Config{DataDir: dir, Voices: tc.voices}, self)
		if err != nil {
			t.Fatalf("%q: %v", tc.voices, err)
		}
		closer.Close()
		_, remote := s.(*remotevoices.Store)
		_, file := s.(*sqlitevoices.Store)
		if remote != tc.remote || file == tc.remote {
			t.Errorf("%q opened a %T", tc.voices, s)
		}
	}
	for voices, want := range map[string]string{
		"http://127.0.0.1:8080/": "this server itself",
		"http://localhost:8080":  "this server itself",
		"ftp://127.0.0.1:8081":   "http or https",
		"http://u:p@127.0.0.1:1": "credentials",
	} {
		if _, _, err := openVoices(platform.Config{DataDir: dir, Voices: voices}, self); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error saying %q", voices, err, want)
		}
	}
}
