package render

import "github.com/lectern/lectern/shared/fault"

var (
	// ErrInvalid: a render request breaks a rule (no text, unknown format,
	// too long) or the engine refused a chunk as invalid.
	ErrInvalid = fault.New(fault.Invalid, "invalid render request")
	// ErrEngine: the engine failed a chunk for good (a refused key, a voice
	// it lacks, audio that is not WAV).
	ErrEngine = fault.New(fault.Upstream, "speech engine failed")
	// ErrBusy: the engine kept failing in ways worth retrying (429, 5xx,
	// no answer) after every attempt; a later run may succeed, and the
	// chunks already spoken are kept in the cache.
	ErrBusy = fault.New(fault.Unavailable, "speech engine busy or down")
	// ErrNotReady: the render has not finished, so it has no audio yet.
	ErrNotReady = fault.New(fault.Conflict, "render not finished")
	// ErrNoFFmpeg: ffmpeg is not installed where the render runs.
	ErrNoFFmpeg = fault.New(fault.Unavailable, "ffmpeg is not installed (apt-get install ffmpeg)")
)
