package speech

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// Chatterbox is the voice library of a Chatterbox TTS API server
// (github.com/travisvn/chatterbox-tts-api): POST {base}/voices uploads a
// reference recording under a name, and the OpenAI-compatible
// {base}/audio/speech then speaks in that voice when asked for the name.
// Chatterbox clones zero-shot from the recording alone; it takes no
// transcript.
type Chatterbox struct {
	BaseURL string // ends in /v1
	Key     string
	Client  *http.Client
}

// chatterboxName is what the server accepts as a voice name: letters,
// digits, '_' and '-'.
var chatterboxName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)

// DeleteVoice removes the voice name and its recording from the server
// (DELETE {base}/voices/{name}); a name the server no longer has is gone
// already.
func (c Chatterbox) DeleteVoice(ctx context.Context, name string) error {
	call := voiceCall{client: c.Client, key: c.Key, auth: bearer}
	return deleteVoice(ctx, call, strings.TrimRight(c.BaseURL, "/")+"/voices/"+url.PathEscape(name))
}

// Clone uploads ref as the voice name and answers the name the speech
// endpoint now takes.
func (c Chatterbox) Clone(ctx context.Context, name string, ref Reference) (string, error) {
	if !chatterboxName.MatchString(name) {
		return "", fmt.Errorf("%w: %q is not a Chatterbox voice name (letters, digits, '_', '-')", ErrInvalid, name)
	}
	if err := checkReference(ref); err != nil {
		return "", err
	}
	body, contentType, err := form([][2]string{{"voice_name", name}}, "voice_file", ref)
	if err != nil {
		return "", err
	}
	call := voiceCall{client: c.Client, key: c.Key, auth: bearer}
	var answer struct {
		Name  string `json:"name"`
		Voice struct {
			Name string `json:"name"`
		} `json:"voice"`
	}
	if _, _, err := call.do(ctx, http.MethodPost, strings.TrimRight(c.BaseURL, "/")+"/voices", contentType, body, &answer); err != nil {
		return "", err
	}
	// The server may have normalised the name (spaces to '_'); use its.
	if got := firstNonEmpty(answer.Voice.Name, answer.Name); got != "" && chatterboxName.MatchString(got) {
		return got, nil
	}
	return name, nil
}
