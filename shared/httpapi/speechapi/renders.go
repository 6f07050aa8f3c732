package speechapi

import (
	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/speech/ear"
	"github.com/lectern/lectern/shared/speech/render"
	"github.com/lectern/lectern/shared/voices"
)

// NewRenderService is the speech renderer over the platform: the voice
// library, this instance's TTS cards and the built-in espeak-ng. Features
// that start renders of their own (listen) build it the same way; the
// speech module alone registers its job.
func NewRenderService(d *platform.Deps) *render.Service {
	library := d.Voices
	if library == nil {
		library = voices.Unconfigured{}
	}
	engines := engineSet{
		cards:  cards.FromDeps(d),
		espeak: speech.Espeak{Command: d.Config.EspeakCommand},
		piper:  d.Piper,
		hosted: d.Hosted(),
	}
	py := d.Config.EarPython
	if py == "" {
		py = ear.DefaultPython()
	}
	// The worker starts on the first checked chunk, so a service that only
	// queues renders never loads the model.
	listener := &ear.Whisper{Python: py}
	return render.NewService(render.New(d.Blobs, render.Options{FFmpeg: d.Config.FFmpegCommand, Ear: listener}), d.Jobs, library, engines, d.Blobs)
}
