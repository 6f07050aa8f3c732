package speech

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
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

func TestEnginesRefuseInvalidRequestsWithoutRunning(t *testing.T) {
	srv, calls := engine(t, nil)
	bad := Request{Text: "x", Speed: 9}
	for _, tc := range []struct {
		name string
		s    Synthesizer
	}{
		{"OpenAI", client(srv.URL, time.Second, 0)},
		// A missing command would be ErrNotInstalled: validation comes first.
		{"Espeak", Espeak{Command: "no-such-espeak-ng"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.s.Speak(context.Background(), bad); !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v", err)
			}
		})
	}
	if calls.Load() != 0 {
		t.Fatalf("the engine was called %d times", calls.Load())
	}
}
