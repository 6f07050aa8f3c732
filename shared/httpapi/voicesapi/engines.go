package voicesapi

import (
	"context"
	"fmt"

	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/voices"
	"github.com/lectern/lectern/shared/voices/cardvoices"
)

// engineSet is the library's Engines port over this instance's engine
// cards and the built-in espeak-ng and Piper.
type engineSet struct {
	cards  *cards.Service
	espeak speech.Espeak
	piper  *speech.Piper
	// hosted: an AWS function, which has espeak-ng only where it carries
	// one (espeak.Command, LECTERN_ESPEAK: the Voices function's bundle).
	hosted bool
}

var _ voices.Engines = engineSet{}

func (e engineSet) Available(ctx context.Context, engine string) error {
	switch {
	case engine == voices.PiperEngine:
		if err := e.piper.Status(ctx); err != nil {
			return fmt.Errorf("%w: %v", voices.ErrNoEngine, err)
		}
	case engine == voices.BuiltinEngine && e.hosted && e.espeak.Command == "":
		return fmt.Errorf("%w: this function carries no espeak-ng (LECTERN_ESPEAK is unset); use a TTS engine card", voices.ErrNoEngine)
	}
	return nil
}

func (e engineSet) Speaker(ctx context.Context, engine string) (speech.Synthesizer, error) {
	if voices.IsBuiltinEngine(engine) {
		if err := e.Available(ctx, engine); err != nil {
			return nil, err
		}
		if engine == voices.PiperEngine {
			return e.piper, nil
		}
		return e.espeak, nil
	}
	ep, err := cardvoices.TTSCard(ctx, e.cards, engine)
	if err != nil {
		return nil, err
	}
	return cardvoices.Speaker(ep, 0), nil
}

func (e engineSet) Cloner(ctx context.Context, engine string) (voices.Cloner, error) {
	if voices.IsBuiltinEngine(engine) {
		return nil, fmt.Errorf("%w: the built-in %s speaks only its own voices and cannot imitate a recording; clone on a chatterbox or elevenlabs engine card", voices.ErrCannotClone, engine)
	}
	ep, err := cardvoices.TTSCard(ctx, e.cards, engine)
	if err != nil {
		return nil, err
	}
	return cardvoices.Cloner(ep, engine)
}

func (e engineSet) Designer(ctx context.Context, engine string) (voices.Designer, error) {
	if engine == voices.PiperEngine {
		return nil, fmt.Errorf("%w: the neural voice has one speaker and its variations in the library; design offline with espeak-ng", voices.ErrCannotDesign)
	}
	if engine == voices.BuiltinEngine {
		speaker, err := e.Speaker(ctx, engine)
		if err != nil {
			return nil, err
		}
		return voices.EspeakDesigner{Speaker: speaker}, nil
	}
	ep, err := cardvoices.TTSCard(ctx, e.cards, engine)
	if err != nil {
		return nil, err
	}
	return cardvoices.Designer(ep, engine)
}

func (e engineSet) CardVoices(ctx context.Context, card string) ([]string, bool, error) {
	ep, err := cardvoices.TTSCard(ctx, e.cards, card)
	if err != nil {
		return nil, false, err
	}
	return cardvoices.VoiceList(ctx, ep)
}

func (e engineSet) EspeakVoices(ctx context.Context) ([]speech.EspeakVoice, error) {
	return e.espeak.VoiceTable(ctx)
}

func (e engineSet) EspeakVariants(ctx context.Context) ([]string, error) {
	return e.espeak.Variants(ctx)
}
