// Command lectern is the local binary: `lectern serve` runs the API, the web
// app, the job workers and the ingest pipeline (the state machine walked
// in-process) on one machine with embedded storage; `lectern ingest` runs one
// PDF through that pipeline.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/lectern/lectern"
	"github.com/lectern/lectern/frontend"
	"github.com/lectern/lectern/shared/app"
	"github.com/lectern/lectern/shared/features"
	"github.com/lectern/lectern/shared/heapbound"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/pipeline/visionocr"
	"github.com/lectern/lectern/shared/platform"
)

const usage = `usage: lectern <command> [flags]

commands:
  serve     run the API and web app (default 127.0.0.1:8080, data in ./data)
  ingest    ingest one magazine PDF into the data folder (not while serve runs on it)
  mcp       serve lectern_mcp (MCP tools over the API) on stdio, or streamable HTTP with --http ADDR
  version   print the version
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Setenv, os.Stdout, os.Stderr))
}

// run is the command; setenv sets the process's environment (TMPDIR, see
// useTempDir), which tests running it in-process leave alone.
func run(ctx context.Context, args []string, getenv func(string) string, setenv func(string, string) error, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		if err := serve(ctx, args[1:], getenv, setenv, stderr); err != nil {
			fmt.Fprintf(stderr, "lectern serve: %v\n", err)
			return 1
		}
		return 0
	case "ingest":
		if err := ingest(ctx, args[1:], getenv, setenv, stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "lectern ingest: %v\n", err)
			return 1
		}
		return 0
	case "mcp":
		if err := mcpServe(ctx, args[1:], getenv, stderr); err != nil {
			fmt.Fprintf(stderr, "lectern mcp: %v\n", err)
			return 1
		}
		return 0
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, lectern.Version())
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "lectern: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// ingest runs one PDF through the local pipeline and prints each page's
// outcome. It opens the data folder itself, so `lectern serve` must not be
// running on the same folder (bbolt locks it).
func ingest(ctx context.Context, args []string, getenv func(string) string, setenv func(string, string) error, stdout, stderr io.Writer) error {
	var title, cpuProfile, memProfile *string
	cfg, fs, err := localConfig("ingest", args, getenv, setenv, stderr, func(fs *flag.FlagSet, cfg *platform.Config) {
		title = fs.String("title", "", "issue title (default: the file name)")
		cpuProfile = fs.String("cpuprofile", "", "write a CPU profile (pprof) of the ingest to this file")
		memProfile = fs.String("memprofile", "", "write a heap profile (pprof, allocations included) to this file when the ingest ends")
	})
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: lectern ingest [-data DIR] [-title T] [-cpuprofile F] [-memprofile F] FILE.pdf")
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *memProfile != "" {
		// Deferred before the app opens, so it is written after it closed.
		defer func() {
			runtime.GC() // in-use figures as of the end, not the last GC
			if f, err := os.Create(*memProfile); err == nil {
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			} else {
				fmt.Fprintf(stderr, "lectern ingest: memprofile: %v\n", err)
			}
		}()
	}
	defer heapbound.Start(heapMargin).Stop()
	if *title == "" {
		*title = issues.ClipTitle(strings.TrimSuffix(filepath.Base(fs.Arg(0)), filepath.Ext(fs.Arg(0))))
	}
	if n := utf8.RuneCountInString(*title); n > issues.MaxTitle {
		return fmt.Errorf("the title has %d characters; the limit is %d", n, issues.MaxTitle)
	}
	file, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer file.Close()
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// Every feature is mounted, so jobs a server queued on this folder still
	// find their handlers while the job workers run.
	local, err := app.OpenLocal(ctx, cfg, "http://127.0.0.1", log, features.All()...)
	if err != nil {
		return err
	}
	defer local.Close()
	mag, err := magazineapi.New(local.Deps, pipeline.Proposing(visionocr.NewSteps(local.Deps), local.Deps))
	if err != nil {
		return err
	}
	is, err := mag.IngestFile(ctx, *title, file)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "issue %s %q: %s, %d pages\n", is.ID, is.Title, is.Status, is.PageCount)
	// One page at a time: a long issue's pages are not all held at once.
	for n := 1; n <= is.PageCount; n++ {
		p, _, err := mag.Issues.Repo.Page(ctx, is.ID, n)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  page %d: %s, engine %s, %d regions %s\n", p.Number, p.Step, p.Engine, len(p.Regions), p.Error)
	}
	if is.Status != "ready" {
		return fmt.Errorf("issue %s: %s", is.Status, is.Error)
	}
	return nil
}

// heapMargin is how far past its live heap the process lets the Go heap
// grow before collecting (heapbound): two 150-DPI page renders. Go's default
// lets it reach twice the live heap, so the peak followed whichever
// collection saw the most pages at their fattest, and grew with the issue's
// length (issue 19: 495 pages peaked 1.2 times as high as 15).
const heapMargin = 16 << 20

// localConfig reads the environment, then the command's flags over it:
// every local command has -data; more adds the command's own flags.
func localConfig(name string, args []string, getenv func(string) string, setenv func(string, string) error, stderr io.Writer, more func(*flag.FlagSet, *platform.Config)) (platform.Config, *flag.FlagSet, error) {
	cfg, err := platform.FromEnv(getenv)
	if err != nil {
		return platform.Config{}, nil, err
	}
	cfg.Mode = platform.ModeLocal
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.DataDir, "data", cfg.DataDir, "data folder (LECTERN_DATA)")
	more(fs, &cfg)
	if err := fs.Parse(args); err != nil {
		return cfg, fs, err
	}
	return cfg, fs, useTempDir(cfg.DataDir, setenv)
}

// useTempDir makes the data folder's temporary area the process's own
// (app.TempDir): Go's multipart parser writes large form uploads to
// os.TempDir, which only TMPDIR sets, and a kill -9 mid-upload would
// otherwise leave the file where no start-up sweeps it.
func useTempDir(dataDir string, setenv func(string, string) error) error {
	dir := app.TempDir(dataDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("temporary folder %s: %w", dir, err)
	}
	return setenv("TMPDIR", dir)
}

func serve(ctx context.Context, args []string, getenv func(string) string, setenv func(string, string) error, stderr io.Writer) error {
	cfg, _, err := localConfig("serve", args, getenv, setenv, stderr, func(fs *flag.FlagSet, cfg *platform.Config) {
		fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "listen address (LECTERN_ADDR)")
		fs.StringVar(&cfg.Instance, "instance", cfg.Instance, "instance name (LECTERN_INSTANCE)")
		fs.StringVar(&cfg.Voices, "voices", cfg.Voices, "voice library: a file other instances may share, or the base URL of the instance whose library to use, http(s)://host:port (LECTERN_VOICES; default DATA/voices.db)")
		fs.IntVar(&cfg.Workers, "workers", cfg.Workers, "background job concurrency (LECTERN_WORKERS)")
		fs.Func("public-host", "a further name the server answers to, e.g. behind a proxy; repeatable (LECTERN_PUBLIC_HOST)", func(v string) error {
			cfg.PublicHosts = append(cfg.PublicHosts, platform.List(v)...)
			return nil
		})
		fs.Func("allowed-origin", "a web origin that may send changes, scheme://host[:port]; repeatable (LECTERN_ALLOWED_ORIGINS)", func(v string) error {
			cfg.AllowedOrigins = append(cfg.AllowedOrigins, platform.List(v)...)
			return nil
		})
	})
	if err != nil {
		return err
	}
	if err := cfg.CheckServe(); err != nil {
		return err
	}
	defer heapbound.Start(heapMargin).Stop()
	log := slog.New(slog.NewJSONHandler(stderr, nil))

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	access := httpapi.Access{Bound: ln.Addr().String(), PublicHosts: cfg.PublicHosts, Origins: cfg.AllowedOrigins}
	if err := access.Check(); err != nil {
		ln.Close()
		return err
	}
	local, err := app.OpenLocal(ctx, cfg, "http://"+ln.Addr().String(), log, features.All()...)
	if err != nil {
		ln.Close()
		return err
	}
	defer local.Close()

	handler := app.LocalHandler(lectern.Version(), cfg.Token, log,
		app.SiteParts{Blobs: local.BlobHandler, Static: frontend.Files(), Access: access}, local.Operations()...)
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("lectern serving", "addr", ln.Addr().String(), "data", cfg.DataDir,
		"version", lectern.Version(), "token_required", cfg.Token != "")

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}
