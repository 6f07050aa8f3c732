// Package cardvoices adapts a TTS engine card to the voice library's
// engine ports (speaker, cloner, designer, voice list), by the voice API the
// card names. It is apart from voices so that the library's Store and Voice
// types link no engine client (openai-go alone is 17 MB).
package cardvoices

import (
	"context"
	"errors"
	"fmt"

	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/engines/speech/oaispeech"
	"github.com/lectern/lectern/shared/voices"
)

// TTSCard is the engine of a TTS engine card; any other card, or none,
// cannot speak (voices.ErrNoEngine, naming the card).
func TTSCard(ctx context.Context, c *cards.Service, card string) (cards.Endpoint, error) {
	ep, err := c.Endpoint(ctx, card)
	switch {
	case errors.Is(err, cards.ErrNotFound):
		return cards.Endpoint{}, fmt.Errorf("%w: there is no engine card %q on this instance", voices.ErrNoEngine, card)
	case err != nil:
		return cards.Endpoint{}, err
	case ep.Kind != cards.KindTTS:
		return cards.Endpoint{}, fmt.Errorf("%w: engine card %q is a %s card, not tts", voices.ErrNoEngine, card, ep.Kind)
	}
	return ep, nil
}

// Speaker is the synthesizer of a TTS card's engine, by the protocol
// its card names; maxRetries as oaispeech.Config's (-1: the caller retries).
func Speaker(ep cards.Endpoint, maxRetries int) speech.Synthesizer {
	if ep.VoiceAPI == cards.VoiceAPIElevenLabs {
		return elevenLabs(ep)
	}
	return oaispeech.NewOpenAI(oaispeech.Config{BaseURL: ep.BaseURL, APIKey: ep.Key, Model: ep.Model, HTTPClient: ep.Client, MaxRetries: maxRetries})
}

// Cloner is the clone call of a TTS card's engine.
func Cloner(ep cards.Endpoint, card string) (voices.Cloner, error) {
	switch ep.VoiceAPI {
	case cards.VoiceAPIChatterbox:
		return speech.Chatterbox{BaseURL: ep.BaseURL, Key: ep.Key, Client: ep.Client}, nil
	case cards.VoiceAPIElevenLabs:
		return elevenLabs(ep), nil
	}
	return nil, fmt.Errorf("%w: engine %s speaks the OpenAI speech API only; set its card's voice API to chatterbox or elevenlabs if the engine is one of those", voices.ErrCannotClone, card)
}

// Designer is the design call of a TTS card's engine.
func Designer(ep cards.Endpoint, card string) (voices.Designer, error) {
	if ep.VoiceAPI == cards.VoiceAPIElevenLabs {
		return elevenLabsDesigner{elevenLabs(ep)}, nil
	}
	api := ep.VoiceAPI
	if api == "" {
		api = cards.VoiceAPIOpenAI
	}
	return nil, fmt.Errorf("%w: engine %s (voice API %s) has no design call; design with espeak-ng offline, or with an elevenlabs engine", voices.ErrCannotDesign, card, api)
}

// elevenLabsDesigner adapts the ElevenLabs client to Designer.
type elevenLabsDesigner struct{ api speech.ElevenLabs }

func (d elevenLabsDesigner) Design(ctx context.Context, description, text string) ([]voices.Candidate, error) {
	samples, err := d.api.Design(ctx, description, text)
	if err != nil {
		return nil, err
	}
	out := make([]voices.Candidate, len(samples))
	for i, s := range samples {
		out[i] = voices.Candidate{GeneratedID: s.GeneratedID, Audio: s.Audio}
	}
	return out, nil
}

func (d elevenLabsDesigner) Save(ctx context.Context, generatedID, name, description string) (string, error) {
	return d.api.SaveDesign(ctx, generatedID, name, description)
}

// VoiceList lists a TTS card's voices: an ElevenLabs account's voice
// ids; else GET /v1/audio/voices where the engine offers it, or OpenAI's
// names (listed false) where it does not.
func VoiceList(ctx context.Context, ep cards.Endpoint) (names []string, listed bool, err error) {
	if ep.VoiceAPI == cards.VoiceAPIElevenLabs {
		names, err := elevenLabs(ep).Voices(ctx)
		return names, true, err
	}
	names, listed, err = speech.ListVoices(ctx, ep.Client, ep.BaseURL, ep.Key)
	if err != nil || listed {
		return names, listed, err
	}
	return speech.OpenAIVoices, false, nil
}

// elevenLabs is the ElevenLabs client of a card.
func elevenLabs(ep cards.Endpoint) speech.ElevenLabs {
	return speech.ElevenLabs{BaseURL: ep.BaseURL, Key: ep.Key, Model: ep.Model, Client: ep.Client}
}
