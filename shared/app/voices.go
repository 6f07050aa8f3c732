package app

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/voices"
	"github.com/lectern/lectern/shared/voices/remotevoices"
	"github.com/lectern/lectern/shared/voices/sqlitevoices"
)

// openVoices opens the local voice library LECTERN_VOICES names: an SQLite
// file (voices.db in the data folder by default) that several instances on
// this machine may share, or the base URL of another instance whose library
// this one uses over HTTP (instances on other machines, or in containers
// that cannot share a file). That instance may require a bearer token: this
// one sends its own LECTERN_TOKEN, so the two must share it. self is this
// server's base URL.
func openVoices(cfg platform.Config, self string) (voices.Store, io.Closer, error) {
	if remotevoices.IsURL(cfg.Voices) {
		if sameServer(cfg.Voices, self) {
			// Every call would call this server again, without end.
			return nil, nil, fmt.Errorf("LECTERN_VOICES %s is this server itself: give the URL of the instance that owns the library file", cfg.Voices)
		}
		s, err := remotevoices.New(cfg.Voices, remotevoices.Options{Token: cfg.Token})
		if err != nil {
			return nil, nil, fmt.Errorf("LECTERN_VOICES: %w", err)
		}
		return s, s, nil
	}
	path := cfg.Voices
	if path == "" {
		path = filepath.Join(cfg.DataDir, "voices.db")
	}
	s, err := sqlitevoices.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("LECTERN_VOICES: %w", err)
	}
	return s, s, nil
}

// sameServer reports whether two base URLs reach one server: the same port,
// and the same host or loopback names both. A server's own URL names its
// bound port, so a URL without one (80 or 443) is never the same.
func sameServer(a, b string) bool {
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil || ua.Port() != ub.Port() {
		return false
	}
	ha, hb := ua.Hostname(), ub.Hostname()
	return strings.EqualFold(ha, hb) || (platform.IsLoopback(ha) && platform.IsLoopback(hb))
}
