package speech

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestValidateRefusesBadRequests(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  Request
		want string // "" for a valid request
	}{
		{"plain text", Request{Text: "Hello."}, ""},
		{"every format", Request{Text: "x", Format: "flac"}, ""},
		{"4096 multibyte characters", Request{Text: strings.Repeat("é", MaxTextChars)}, ""},
		{"slowest speed", Request{Text: "x", Speed: MinSpeed}, ""},
		{"fastest speed", Request{Text: "x", Speed: MaxSpeed}, ""},
		{"empty text", Request{}, "text is empty"},
		{"blank text", Request{Text: " \n\t"}, "text is empty"},
		{"4097 characters", Request{Text: strings.Repeat("a", MaxTextChars+1)}, "4097 characters"},
		{"invalid UTF-8", Request{Text: "ab\xff"}, "UTF-8"},
		{"unknown format", Request{Text: "x", Format: "aac"}, `format "aac"`},
		{"upper-case format", Request{Text: "x", Format: "WAV"}, `format "WAV"`},
		{"too slow", Request{Text: "x", Speed: 0.2}, "speed 0.2"},
		{"too fast", Request{Text: "x", Speed: 4.5}, "speed 4.5"},
		{"negative speed", Request{Text: "x", Speed: -1}, "speed -1"},
		{"NaN speed", Request{Text: "x", Speed: math.NaN()}, "speed NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.req.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("valid request refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ErrInvalid mentioning %q", err, tc.want)
			}
		})
	}
}

func TestEspeakRefusesInvalidRequestsWithoutRunning(t *testing.T) {
	// A missing command would be ErrNotInstalled: validation comes first.
	// (oaispeech tests the same of the OpenAI-compatible engine.)
	bad := Request{Text: "x", Speed: 9}
	if _, err := (Espeak{Command: "no-such-espeak-ng"}).Speak(context.Background(), bad); !errors.Is(err, ErrInvalid) {
		t.Fatalf("got %v", err)
	}
}
