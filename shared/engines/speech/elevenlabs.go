package speech

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/engines"
)

// ElevenLabs speaks the ElevenLabs API (base https://api.elevenlabs.io/v1):
// speech by voice id, its voice list, instant voice cloning and voice
// design. Self-hosted servers that mirror it take the same calls. The key
// travels in the xi-api-key header.
type ElevenLabs struct {
	BaseURL string // ends in /v1
	Key     string
	Model   string // empty means ElevenLabsModel
	Client  *http.Client
}

// ElevenLabsModel is the speech model used when the card names none.
const ElevenLabsModel = "eleven_multilingual_v2"

// ElevenLabs' design limits: a description of 20-1000 characters, and a
// sample text of 100-1000.
const (
	MinDesignDescriptionChars = 20
	MaxDesignDescriptionChars = 1000
	minDesignTextChars        = 100
)

var _ Synthesizer = ElevenLabs{}

func xiKey(h http.Header, key string) { h.Set("xi-api-key", key) }

func (e ElevenLabs) call() voiceCall { return voiceCall{client: e.Client, key: e.Key, auth: xiKey} }

func (e ElevenLabs) url(path string) string { return strings.TrimRight(e.BaseURL, "/") + path }

// Speak asks POST /text-to-speech/{voice_id} for MP3 (the only format every
// plan gets); a request for another format is refused before any call.
func (e ElevenLabs) Speak(ctx context.Context, req Request) (Audio, error) {
	if err := req.Validate(); err != nil {
		return Audio{}, err
	}
	// MP3 as it comes; WAV (what the renderer joins) from raw 16-bit PCM.
	outputFormat := "mp3_44100_128"
	switch req.OutputFormat() {
	case FormatMP3:
	case FormatWAV:
		outputFormat = "pcm_24000"
	default:
		return Audio{}, fmt.Errorf("%w: the ElevenLabs engine produces mp3 or wav, not %s", ErrInvalid, req.OutputFormat())
	}
	if strings.TrimSpace(req.Voice) == "" {
		return Audio{}, fmt.Errorf("%w: the ElevenLabs engine needs a voice id", ErrInvalid)
	}
	body := map[string]any{"text": req.Text, "model_id": firstNonEmpty(e.Model, ElevenLabsModel)}
	if req.Speed != 0 {
		// ElevenLabs takes 0.7..1.2; a request outside is brought inside.
		body["voice_settings"] = map[string]any{"speed": min(max(req.speed(), 0.7), 1.2)}
	}
	data, _ := json.Marshal(body)
	audio, contentType, err := e.call().do(ctx, http.MethodPost,
		e.url("/text-to-speech/"+url.PathEscape(req.Voice)+"?output_format="+outputFormat), "application/json", data, nil)
	if err != nil {
		return Audio{}, err
	}
	if len(audio) == 0 {
		return Audio{}, ErrEmptyAnswer
	}
	if req.OutputFormat() == FormatWAV {
		return Audio{Data: pcmToWAV(audio, 24000), ContentType: "audio/wav"}, nil
	}
	if !strings.HasPrefix(contentType, "audio/") {
		contentType = "audio/mpeg"
	}
	return Audio{Data: audio, ContentType: contentType}, nil
}

// Voices lists the account's voice ids (GET /voices).
func (e ElevenLabs) Voices(ctx context.Context) ([]string, error) {
	data, _, err := e.call().do(ctx, http.MethodGet, e.url("/voices"), "", nil, nil)
	if err != nil {
		return nil, err
	}
	ids, err := parseVoiceList(data)
	if err != nil {
		return nil, &EngineError{URL: engines.Redact(e.url("/voices"), e.Key), Status: http.StatusOK, Detail: err.Error()}
	}
	return ids, nil
}

// Clone makes an instant voice clone from ref (POST /voices/add) and
// answers its voice id.
func (e ElevenLabs) Clone(ctx context.Context, name string, ref Reference) (string, error) {
	if err := checkReference(ref); err != nil {
		return "", err
	}
	fields := [][2]string{{"name", name}}
	if ref.Transcript != "" {
		fields = append(fields, [2]string{"description", "Cloned from a recording that says: " + clipRunes(ref.Transcript, 400)})
	}
	body, contentType, err := form(fields, "files", ref)
	if err != nil {
		return "", err
	}
	var answer struct {
		VoiceID string `json:"voice_id"`
	}
	if _, _, err := e.call().do(ctx, http.MethodPost, e.url("/voices/add"), contentType, body, &answer); err != nil {
		return "", err
	}
	if answer.VoiceID == "" {
		return "", &EngineError{URL: engines.Redact(e.url("/voices/add"), e.Key), Status: http.StatusOK, Detail: "the answer names no voice_id"}
	}
	return answer.VoiceID, nil
}

// DeleteVoice removes a voice of the account (DELETE /voices/{voice_id}),
// with the samples it was cloned from; one already gone is not an error.
func (e ElevenLabs) DeleteVoice(ctx context.Context, voiceID string) error {
	return deleteVoice(ctx, e.call(), e.url("/voices/"+url.PathEscape(voiceID)))
}

// Design asks POST /text-to-voice/design for voices matching description,
// each with a sample reading text (or a text of the engine's own when
// text is shorter than the 100 characters it needs).
func (e ElevenLabs) Design(ctx context.Context, description, text string) ([]DesignSample, error) {
	n := utf8.RuneCountInString(description)
	if n < MinDesignDescriptionChars || n > MaxDesignDescriptionChars {
		return nil, fmt.Errorf("%w: a voice description needs %d-%d characters, not %d", ErrInvalid, MinDesignDescriptionChars, MaxDesignDescriptionChars, n)
	}
	body := map[string]any{"voice_description": description, "output_format": "mp3_44100_128"}
	if utf8.RuneCountInString(text) >= minDesignTextChars {
		body["text"] = clipRunes(text, 1000)
	} else {
		body["auto_generate_text"] = true
	}
	data, _ := json.Marshal(body)
	var answer struct {
		Previews []struct {
			Audio       string `json:"audio_base_64"`
			GeneratedID string `json:"generated_voice_id"`
			MediaType   string `json:"media_type"`
		} `json:"previews"`
	}
	if _, _, err := e.call().do(ctx, http.MethodPost, e.url("/text-to-voice/design"), "application/json", data, &answer); err != nil {
		return nil, err
	}
	var out []DesignSample
	for _, p := range answer.Previews {
		audio, err := base64.StdEncoding.DecodeString(p.Audio)
		if err != nil || len(audio) == 0 || p.GeneratedID == "" {
			continue // a broken preview is left out; the others still serve
		}
		ct := p.MediaType
		if !strings.HasPrefix(ct, "audio/") {
			ct = "audio/mpeg"
		}
		out = append(out, DesignSample{GeneratedID: p.GeneratedID, Audio: Audio{Data: audio, ContentType: ct}})
	}
	if len(out) == 0 {
		return nil, &EngineError{URL: engines.Redact(e.url("/text-to-voice/design"), e.Key), Status: http.StatusOK, Detail: "the answer holds no usable preview", Err: ErrEmptyAnswer}
	}
	return out, nil
}

// SaveDesign keeps a designed voice (POST /text-to-voice) and answers its
// voice id.
func (e ElevenLabs) SaveDesign(ctx context.Context, generatedID, name, description string) (string, error) {
	data, _ := json.Marshal(map[string]string{"voice_name": name, "voice_description": description, "generated_voice_id": generatedID})
	var answer struct {
		VoiceID string `json:"voice_id"`
	}
	if _, _, err := e.call().do(ctx, http.MethodPost, e.url("/text-to-voice"), "application/json", data, &answer); err != nil {
		return "", err
	}
	if answer.VoiceID == "" {
		return "", &EngineError{URL: engines.Redact(e.url("/text-to-voice"), e.Key), Status: http.StatusOK, Detail: "the answer names no voice_id"}
	}
	return answer.VoiceID, nil
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// pcmToWAV wraps raw 16-bit little-endian mono samples in a WAV header.
func pcmToWAV(pcm []byte, rate uint32) []byte {
	pcm = pcm[:len(pcm)&^1] // whole samples only
	le := binary.LittleEndian
	h := make([]byte, 44, 44+len(pcm))
	copy(h[0:], "RIFF")
	le.PutUint32(h[4:], uint32(36+len(pcm)))
	copy(h[8:], "WAVEfmt ")
	le.PutUint32(h[16:], 16)
	le.PutUint16(h[20:], 1) // PCM
	le.PutUint16(h[22:], 1) // mono
	le.PutUint32(h[24:], rate)
	le.PutUint32(h[28:], rate*2)
	le.PutUint16(h[32:], 2)
	le.PutUint16(h[34:], 16)
	copy(h[36:], "data")
	le.PutUint32(h[40:], uint32(len(pcm)))
	return append(h, pcm...)
}
