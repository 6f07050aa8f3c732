package speechapi

import (
	"context"
	"fmt"
	"runtime"

	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/speech/render"
	"github.com/lectern/lectern/shared/voices"
	"github.com/lectern/lectern/shared/voices/cardvoices"
)

// cardConcurrency is how many calls a render makes to an engine card at
// once: enough to keep a GPU engine busy, few enough not to be rate limited.
const cardConcurrency = 4

// engineSet is the renderer's Engines port over this instance's TTS engine
// cards and the built-in espeak-ng.
type engineSet struct {
	cards  *cards.Service
	espeak speech.Espeak
	piper  *speech.Piper
	// hosted: an AWS function, which has espeak-ng only where it carries
	// one (espeak.Command, LECTERN_ESPEAK: the worker's bundle).
	hosted bool
}

var _ render.Engines = engineSet{}

func (e engineSet) Engine(ctx context.Context, engine, voice string) (render.Engine, error) {
	if engine == voices.PiperEngine {
		if err := e.piper.Status(ctx); err != nil {
			return render.Engine{}, fmt.Errorf("%w: %v", voices.ErrNoEngine, err)
		}
		// One worker speaks one chunk at a time, ONNX Runtime using every
		// core for it; the renderer's look-ahead keeps it fed.
		return render.Engine{Name: engine, Voice: voice, Speaker: e.piper, Limit: render.PiperLimit, Concurrency: 1}, nil
	}
	if engine == voices.BuiltinEngine {
		if e.hosted && e.espeak.Command == "" {
			return render.Engine{}, fmt.Errorf("%w: this function carries no espeak-ng (LECTERN_ESPEAK is unset); use a voice of a TTS engine card", voices.ErrNoEngine)
		}
		// espeak-ng is a process per chunk: one per core.
		return render.Engine{Name: engine, Voice: voice, Speaker: e.espeak, Limit: render.EspeakLimit, Concurrency: runtime.NumCPU()}, nil
	}
	ep, err := cardvoices.TTSCard(ctx, e.cards, engine)
	if err != nil {
		return render.Engine{}, err
	}
	return render.Engine{
		// The cache tells engines apart by where they are and what model
		// speaks, not only by the card's name, which a user may re-point.
		Name:  engine + "\x00" + ep.BaseURL + "\x00" + ep.Model,
		Voice: voice,
		// Retries are the renderer's, which honours Retry-After.
		Speaker:     cardvoices.Speaker(ep, -1),
		Limit:       render.OpenAILimit,
		Concurrency: cardConcurrency,
	}, nil
}
