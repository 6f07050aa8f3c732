package voicesapi

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/voices"
)

// TestHostedEspeakNeedsABundledCommand: an AWS function without
// LECTERN_ESPEAK refuses built-in voices (previews and offline design),
// saying it carries no espeak-ng; one with it (the Voices function's
// bundle) speaks.
func TestHostedEspeakNeedsABundledCommand(t *testing.T) {
	espeak, err := exec.LookPath("espeak-ng")
	if err != nil {
		t.Fatal("espeak-ng is not installed: run `make deps` (apt-get install espeak-ng)")
	}
	ctx := t.Context()
	bare := engineSet{hosted: true}
	_, err = bare.Speaker(ctx, voices.BuiltinEngine)
	_, derr := bare.Designer(ctx, voices.BuiltinEngine)
	for _, err := range []error{err, derr} {
		if !errors.Is(err, voices.ErrNoEngine) || !strings.Contains(err.Error(), "carries no espeak-ng") {
			t.Fatalf("hosted without espeak-ng: %v; want ErrNoEngine saying it carries none", err)
		}
	}

	bundled := engineSet{hosted: true, espeak: speech.Espeak{Command: espeak}}
	if _, err := bundled.Designer(ctx, voices.BuiltinEngine); err != nil {
		t.Fatalf("hosted with espeak-ng, design: %v", err)
	}
	speaker, err := bundled.Speaker(ctx, voices.BuiltinEngine)
	if err != nil {
		t.Fatalf("hosted with espeak-ng: %v", err)
	}
	audio, err := speaker.Speak(ctx, speech.Request{Text: "A preview in AWS.", Voice: "en-us"})
	if err != nil || len(audio.Data) < 1000 {
		t.Fatalf("hosted with espeak-ng spoke %d bytes: %v", len(audio.Data), err)
	}
}
