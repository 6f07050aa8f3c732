package sqlitevoices

import (
	"path/filepath"
	"testing"

	"github.com/lectern/lectern/shared/voices"
	"github.com/lectern/lectern/shared/voices/voicetest"
)

func TestContract(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		voicetest.Run(t, func(t *testing.T) voices.Store {
			s, err := Open(filepath.Join(t.TempDir(), "voices.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		})
	})
}
