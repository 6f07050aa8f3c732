package app

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/voices"
	"github.com/lectern/lectern/shared/voices/sqlitevoices"
)

// openVoices opens the local voice library LECTERN_VOICES names: an SQLite
// file (voices.db in the data folder by default) that several instances on
// this machine may share.
func openVoices(cfg platform.Config) (voices.Store, io.Closer, error) {
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
