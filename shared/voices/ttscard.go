package voices

import (
	"context"
	"errors"
	"fmt"

	"github.com/lectern/lectern/shared/cards"
)

// TTSCard is the engine of a TTS engine card; any other card, or none,
// cannot speak (ErrNoEngine, naming the card).
func TTSCard(ctx context.Context, c *cards.Service, card string) (cards.Endpoint, error) {
	ep, err := c.Endpoint(ctx, card)
	switch {
	case errors.Is(err, cards.ErrNotFound):
		return cards.Endpoint{}, fmt.Errorf("%w: there is no engine card %q on this instance", ErrNoEngine, card)
	case err != nil:
		return cards.Endpoint{}, err
	case ep.Kind != cards.KindTTS:
		return cards.Endpoint{}, fmt.Errorf("%w: engine card %q is a %s card, not tts", ErrNoEngine, card, ep.Kind)
	}
	return ep, nil
}
