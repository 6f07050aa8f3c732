package speechapi

import (
	"cmp"
	"context"

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
	// The worker starts on the first checked chunk, so a service that only
	// queues renders never loads the model.
	listener := d.Ear
	if listener == nil {
		listener = &ear.Whisper{Python: cmp.Or(d.Config.EarPython, ear.DefaultPython())}
	}
	svc := render.NewService(render.New(d.Blobs, render.Options{FFmpeg: d.Config.FFmpegCommand, Ear: listener}), d.Jobs, library, engines, d.Blobs)
	if d.Settings == nil {
		return svc
	}
	return svc.WithEarDefault(func(ctx context.Context) (bool, error) {
		s, err := d.Settings.Load(ctx)
		return s.EarOn(), err
	})
}
