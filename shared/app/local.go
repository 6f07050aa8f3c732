// Package app wires the local binary: it builds the embedded platform
// (bbolt table, blob folder, in-process jobs, clock, settings), mounts the
// feature modules asked for, and serves them. awsapp does the same for a
// Lambda over DynamoDB, S3 and SQS, so everything above the ports is the
// same in both modes. Neither imports a feature: callers pass modules.
package app

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/lectern/lectern/shared/blob/localfs"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/jobs/localjobs"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/speech/ear"
	"github.com/lectern/lectern/shared/store/bolt"
)

// Local is the embedded-mode platform: a bbolt table, a blob folder with
// HMAC-signed URLs and an in-process job pool, all under cfg.DataDir, with
// the modules it was opened with.
type Local struct {
	*platform.Deps
	Modules []platform.Module
	// BlobHandler serves the signed blob URLs; mount it at /blobs/.
	BlobHandler http.Handler

	table *bolt.Table
	blobs *localfs.Store
	pool  *localjobs.Pool
	// library is the voice library's file, shared with other processes.
	library io.Closer
}

// OpenLocal builds the local platform and the given features, registers
// their job kinds and starts the job workers. baseURL is where this server
// is reachable (for signed blob URLs).
func OpenLocal(ctx context.Context, cfg platform.Config, baseURL string, log *slog.Logger, features ...platform.New) (*Local, error) {
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data folder %s: %w", cfg.DataDir, err)
	}
	secret, err := loadOrCreateSecret(filepath.Join(cfg.DataDir, "blob-signing.key"))
	if err != nil {
		return nil, err
	}
	// Engine keys are sealed with a key beside the database, not in it, so
	// a copy of lectern.db alone reveals none.
	sealKey, err := loadOrCreateSecret(filepath.Join(cfg.DataDir, "secret.key"))
	if err != nil {
		return nil, err
	}
	sealer, err := settings.NewAESGCM(sealKey[:32])
	if err != nil {
		return nil, err
	}
	table, err := bolt.Open(filepath.Join(cfg.DataDir, "lectern.db"))
	if err != nil {
		return nil, err
	}
	blobs, err := localfs.New(filepath.Join(cfg.DataDir, "blobs"), baseURL, secret, time.Now)
	if err != nil {
		table.Close()
		return nil, err
	}
	library, libraryFile, err := openVoices(cfg, baseURL)
	if err != nil {
		blobs.Close()
		table.Close()
		return nil, err
	}
	opened := false
	defer func() {
		if !opened {
			libraryFile.Close()
		}
	}()
	registry := jobs.NewRegistry()
	runner := jobs.NewRunner(table, registry, jobs.RunnerOptions{Log: log})
	pool := localjobs.New(table, runner, localjobs.Options{Workers: cfg.Workers, Log: log})
	deps := &platform.Deps{
		Config:   cfg,
		Log:      log,
		Clock:    time.Now,
		Table:    table,
		Blobs:    blobs,
		Uploads:  blobs,
		Jobs:     pool,
		Settings: settings.NewSealedService(table, cfg.Instance, sealer),
		Voices:   library,
		Piper:    speech.NewPiper(cmp.Or(cfg.PiperPython, speech.DefaultPiperPython())),
		Ear:      &ear.Whisper{Python: cmp.Or(cfg.EarPython, ear.DefaultPython())},
	}
	if err := deps.Settings.SealStored(ctx); err != nil {
		table.Close()
		blobs.Close()
		return nil, err
	}
	// Job kinds are registered before the workers start, so jobs queued by a
	// previous run find their handlers.
	modules, err := platform.Build(deps, features...)
	if err == nil {
		err = platform.RegisterJobs(registry, modules)
	}
	if err != nil {
		blobs.Close()
		table.Close()
		return nil, err
	}
	// Temp files of writes a stopped process cut short (kill -9 mid-upload)
	// go: this process alone holds the data folder now (bbolt's lock).
	if n, err := blobs.SweepTemps(); err != nil {
		log.Warn("sweeping temporary files", "err", err)
	} else if n > 0 {
		log.Warn("removed temporary files a stopped process left", "count", n)
	}
	// The process's own temporary files (form uploads being received,
	// copies, engine work files) live in TempDir: what a killed process
	// left there goes too.
	if n, err := sweepDir(TempDir(cfg.DataDir)); err != nil {
		log.Warn("sweeping the temporary folder", "err", err)
	} else if n > 0 {
		log.Warn("removed temporary files a stopped process left", "folder", TempDir(cfg.DataDir), "count", n)
	}
	// Modules settle what a stopped process left half-done before the
	// workers take its jobs over.
	if err := recoverModules(ctx, pool, modules); err != nil {
		blobs.Close()
		table.Close()
		return nil, err
	}
	if err := pool.Start(ctx); err != nil {
		blobs.Close()
		table.Close()
		return nil, fmt.Errorf("start job workers: %w", err)
	}
	opened = true
	return &Local{Deps: deps, Modules: modules, BlobHandler: blobs.Handler(), table: table, blobs: blobs, pool: pool, library: libraryFile}, nil
}

// TempDir is the data folder's temporary area. The local binary makes it
// the process's temporary folder (TMPDIR), as Go's form parser and the
// engines it runs (Tesseract, ffmpeg) take theirs from there only: a large
// upload cut short by a kill then stays inside the data folder, and the
// next start sweeps it.
func TempDir(dataDir string) string { return filepath.Join(dataDir, "tmp") }

// sweepDir empties dir (making it when missing) and answers how many
// entries it removed. Only the process holding the data folder's lock
// (bbolt's) may call it.
func sweepDir(dir string) (int, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// recoverModules settles the jobs the stopped process left (a job it died
// in is run again once, then given up) and calls each module's Recover
// with them.
func recoverModules(ctx context.Context, pool *localjobs.Pool, modules []platform.Module) error {
	left, err := pool.Settle(ctx)
	if err != nil {
		return err
	}
	for _, m := range modules {
		if m.Recover == nil {
			continue
		}
		if err := m.Recover(ctx, left); err != nil {
			return fmt.Errorf("recover %s: %w", m.Name, err)
		}
	}
	return nil
}

// Operations are the HTTP operations of every module this server mounts.
func (l *Local) Operations() []httpapi.Operation { return platform.Operations(l.Modules) }

// Close stops the job workers (letting running jobs finish for a while) and
// closes the table.
func (l *Local) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return errors.Join(l.pool.Stop(ctx), l.Piper.Close(), l.Ear.Close(), l.blobs.Close(), l.table.Close(), l.library.Close())
}

// loadOrCreateSecret keeps a 32-byte key across restarts (file mode 0600):
// the blob URL signing key, so URLs handed out before a restart stay valid,
// and the key that seals engine keys. A damaged file is an error, never
// replaced: the keys sealed with it would be lost.
func loadOrCreateSecret(path string) ([]byte, error) {
	secret, err := os.ReadFile(path)
	if err == nil && len(secret) >= 32 {
		return secret, nil
	}
	if err == nil {
		return nil, fmt.Errorf("%s holds %d bytes, not 32: restore it, or delete it to make a new one (saved engine keys must then be entered again)", path, len(secret))
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	secret = make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, secret, 0o600); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return secret, nil
}
