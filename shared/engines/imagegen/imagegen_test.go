package imagegen

import (
	"errors"
	"strings"
	"testing"
)

func TestGenerateRequestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  GenerateRequest
		want string // "" for a valid request
	}{
		{"prompt only", GenerateRequest{Prompt: "a lighthouse"}, ""},
		{"square", GenerateRequest{Prompt: "p", Size: "1024x1024"}, ""},
		{"landscape", GenerateRequest{Prompt: "p", Size: "1536x864"}, ""},
		{"auto", GenerateRequest{Prompt: "p", Size: SizeAuto}, ""},
		{"ten images", GenerateRequest{Prompt: "p", N: MaxN}, ""},
		{"empty prompt", GenerateRequest{}, "prompt is empty"},
		{"blank prompt", GenerateRequest{Prompt: " \n"}, "prompt is empty"},
		{"overlong prompt", GenerateRequest{Prompt: strings.Repeat("a", MaxPromptChars+1)}, "more than"},
		{"invalid UTF-8", GenerateRequest{Prompt: "\xff"}, "UTF-8"},
		{"word size", GenerateRequest{Prompt: "p", Size: "large"}, `size "large"`},
		{"upper-case X", GenerateRequest{Prompt: "p", Size: "1024X1024"}, "size"},
		{"one side", GenerateRequest{Prompt: "p", Size: "1024"}, "size"},
		{"three sides", GenerateRequest{Prompt: "p", Size: "1x2x3"}, "size"},
		{"zero side", GenerateRequest{Prompt: "p", Size: "0x1024"}, "size"},
		{"leading zero", GenerateRequest{Prompt: "p", Size: "01024x1024"}, "size"},
		{"signed side", GenerateRequest{Prompt: "p", Size: "+1024x1024"}, "size"},
		{"space", GenerateRequest{Prompt: "p", Size: "1024 x 1024"}, "size"},
		{"too large", GenerateRequest{Prompt: "p", Size: "100000x1024"}, "size"},
		{"negative n", GenerateRequest{Prompt: "p", N: -1}, "n -1"},
		{"too many", GenerateRequest{Prompt: "p", N: MaxN + 1}, "n 11"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check(t, tc.req.Validate(), tc.want)
		})
	}
}

func TestEditRequestValidate(t *testing.T) {
	img := pngOf(t, 4, 4)
	for _, tc := range []struct {
		name string
		req  EditRequest
		want string
	}{
		{"image and prompt", EditRequest{Prompt: "p", Image: img}, ""},
		{"with mask and size", EditRequest{Prompt: "p", Image: img, Mask: img, Size: "512x512"}, ""},
		{"no image", EditRequest{Prompt: "p"}, "image is not a PNG"},
		{"JPEG image", EditRequest{Prompt: "p", Image: jpegOf(t, 4, 4)}, "image is not a PNG"},
		{"mask not a PNG", EditRequest{Prompt: "p", Image: img, Mask: []byte("GIF89a")}, "mask is not a PNG"},
		{"empty prompt", EditRequest{Image: img}, "prompt is empty"},
		{"bad size", EditRequest{Prompt: "p", Image: img, Size: "big"}, "size"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check(t, tc.req.Validate(), tc.want)
		})
	}
}

func check(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("valid request refused: %v", err)
		}
		return
	}
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want ErrInvalid mentioning %q", err, want)
	}
}
