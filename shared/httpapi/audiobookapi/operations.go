package audiobookapi

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/audiobook"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/speech/render"
)

// NoContent answers an operation with nothing to say.
type NoContent struct {
	Status int
}

func deleteBook(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "delete-book", Method: http.MethodDelete, Path: bookPath,
		Summary: "Delete a book with its segments, cast, text and renders; a second delete answers 404", Tags: tags,
		DefaultStatus: http.StatusNoContent,
	}, func(ctx context.Context, in *BookPath) (*NoContent, error) {
		return &NoContent{Status: http.StatusNoContent}, svc.Delete(ctx, in.Book)
	})
}

// SegmentsInput is GET /api/audiobook/books/{book}/segments.
type SegmentsInput struct {
	BookPath
	Chapter  int    `query:"chapter" minimum:"-1" maximum:"499" default:"-1" doc:"only this chapter's segments (its index); -1 or absent: every chapter"`
	Disputed bool   `query:"disputed" doc:"disputed=1: only lines the verify pass disputed"`
	Sort     string `query:"sort" enum:"text,confidence" default:"text" doc:"text: text order; confidence: only dialogue lines, those without a speaker first, then the least certain (lowest confidence) first"`
	Limit    int    `query:"limit" minimum:"1" maximum:"500" default:"100"`
	Offset   int    `query:"offset" minimum:"0" default:"0"`
}

// SegmentsOutput is a page of segments.
type SegmentsOutput struct {
	ETag string `header:"ETag" doc:"the book's revision"`
	Body audiobook.SegmentPage
}

func listSegments(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "list-book-segments", Method: http.MethodGet, Path: bookPath + "/segments",
		Summary: "A page of a book's segments in text order, with their text: spanId (span mode), kind, offsets, speaker and how it was found, " +
			"the verification mark, the other answer of a disputed line, the confidence and the unclosed flag; filter by chapter or disputed=1; sort=confidence lists the least certain lines first",
		Tags: tags,
	}, func(ctx context.Context, in *SegmentsInput) (*SegmentsOutput, error) {
		page, err := svc.Segments(ctx, in.Book, audiobook.SegmentQuery{Chapter: in.Chapter, Disputed: in.Disputed, LeastCertain: in.Sort == "confidence", Limit: in.Limit, Offset: in.Offset})
		if err != nil {
			return nil, err
		}
		return &SegmentsOutput{ETag: etag(page.Revision), Body: page}, nil
	})
}

// SegmentSpeakerOutput answers a speaker set by hand.
type SegmentSpeakerOutput struct {
	ETag string `header:"ETag" doc:"the book's new revision"`
	Body struct {
		Segment  audiobook.Segment `json:"segment"`
		Revision int64             `json:"revision" doc:"the book's new revision"`
	}
}

func setSpeaker(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "set-segment-speaker", Method: http.MethodPut, Path: bookPath + "/segments/{segment}/speaker",
		Summary: "Set a dialogue line's speaker by hand (a name, alias or id of the cast), on the book's revision in If-Match (another answers 409 and changes nothing). " +
			"Later casts keep it; the verify pass never overrules it",
		Tags: tags, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *struct {
		BookPath
		Segment string `path:"segment" pattern:"^c[0-9]{2,4}-[sk][0-9]{4,6}$" doc:"the segment's id"`
		IfMatch string `header:"If-Match" required:"true" doc:"the book's revision (ETag) the change was made on"`
		Body    struct {
			Speaker string `json:"speaker" minLength:"1" maxLength:"200" doc:"a cast member's name, alias or id"`
		}
	}) (*SegmentSpeakerOutput, error) {
		rev, err := revisionOf(in.IfMatch)
		if err != nil {
			return nil, err
		}
		sg, b, err := svc.SetSpeaker(ctx, in.Book, in.Segment, rev, in.Body.Speaker)
		if err != nil {
			return nil, err
		}
		out := &SegmentSpeakerOutput{ETag: etag(b.Revision)}
		out.Body.Segment, out.Body.Revision = sg, b.Revision
		return out, nil
	})
}

// BookCastOutput is a book's cast.
type BookCastOutput struct {
	Body struct {
		NarratorVoice string                `json:"narrator_voice"`
		Characters    []audiobook.Character `json:"characters"`
	}
}

func getCast(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-book-cast", Method: http.MethodGet, Path: bookPath + "/cast",
		Summary: "A book's characters (name, aliases, gender, lines spoken, voice), most lines first, and the narrator's voice", Tags: tags,
	}, func(ctx context.Context, in *BookPath) (*BookCastOutput, error) {
		b, err := svc.Get(ctx, in.Book)
		if err != nil {
			return nil, err
		}
		chars, err := svc.Cast(ctx, in.Book)
		out := &BookCastOutput{}
		out.Body.NarratorVoice, out.Body.Characters = b.NarratorVoice, chars
		return out, err
	})
}

// VoiceBody assigns a voice.
type VoiceBody struct {
	VoiceID string `json:"voice_id" pattern:"^([a-z0-9][a-z0-9._-]{0,99})?$" doc:"a voice of the library; empty clears it (a character then speaks in the narrator's voice)"`
}

// CharacterOutput is one character.
type CharacterOutput struct {
	Body audiobook.Character
}

func setCharacterVoice(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "set-character-voice", Method: http.MethodPut, Path: bookPath + "/cast/{character}/voice",
		Summary: "Set the voice a character speaks in; a voice the library lacks answers 422", Tags: tags, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *struct {
		BookPath
		Character string `path:"character" pattern:"^[a-z0-9][a-z0-9-]{0,99}$" doc:"the character's id"`
		Body      VoiceBody
	}) (*CharacterOutput, error) {
		c, err := svc.SetVoice(ctx, in.Book, in.Character, in.Body.VoiceID)
		return &CharacterOutput{Body: c}, err
	})
}

func setNarrator(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "set-narrator-voice", Method: http.MethodPut, Path: bookPath + "/narrator",
		Summary: "Set the narrator's voice (narration, and characters without a voice); a voice the library lacks answers 422", Tags: tags,
		MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *struct {
		BookPath
		Body struct {
			VoiceID string `json:"voice_id" pattern:"^[a-z0-9][a-z0-9._-]{0,99}$" doc:"a voice of the library"`
		}
	}) (*BookOutput, error) {
		b, err := svc.SetNarrator(ctx, in.Book, in.Body.VoiceID)
		if err != nil {
			return nil, err
		}
		return view(ctx, svc, b, http.StatusOK)
	})
}

// SuggestionsOutput proposes voices.
type SuggestionsOutput struct {
	Body audiobook.Suggestions
}

func suggestVoices(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "suggest-book-voices", Method: http.MethodGet, Path: bookPath + "/voice-suggestions",
		Summary: "Voices of the library proposed for the narrator and each character, best first: by gender, then age (guessed from the name), then English; " +
			"each character's first proposal differs from the others' while the library has enough",
		Tags: tags,
	}, func(ctx context.Context, in *BookPath) (*SuggestionsOutput, error) {
		s, err := svc.Suggestions(ctx, in.Book)
		return &SuggestionsOutput{Body: s}, err
	})
}

func attributeSpans(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "attribute-spans", Method: http.MethodPost, Path: "/api/attribute-spans",
		Summary: "Cast a book with the LLM from Settings as a background job (follow it at status_url). mode span (default): the LLM names the speaker of each dialogue span " +
			"the rules left, at most 40 spans and 150 prompt tokens per span on average a request; an explicit tag and a speaker set by hand are never replaced. " +
			"mode classic: the LLM segments the text itself and auto-repair aligns its segments to the source, reporting what it fused, dropped or invented. " +
			"verify: a second pass with other windows marks each line agreed or disputed (the other answer kept) and changes no speaker. " +
			"No LLM configured answers 409; a cast of the book already running answers 409",
		Tags: tags, DefaultStatus: http.StatusAccepted, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *struct {
		Body struct {
			BookID string `json:"book_id" pattern:"^[a-z0-9]{8,40}$"`
			Mode   string `json:"mode,omitempty" enum:"span,classic" default:"span" doc:"span (default) or classic (the browser's ab-span-mode 0)"`
			Verify bool   `json:"verify,omitempty" doc:"run the verify pass after attribution"`
		}
	}) (*jobsapi.JobStartedOut, error) {
		b := in.Body
		return jobsapi.Started(svc.StartCast(ctx, audiobook.CastRequest{BookID: b.BookID, Mode: b.Mode, Verify: b.Verify}))
	})
}

func startRender(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "start-book-render", Method: http.MethodPost, Path: bookPath + "/render",
		Summary: "Voice the book as a background job: one M4B with a chapter per book chapter, then an MP3 per chapter; each line in its speaker's voice, " +
			"narration and characters without a voice in the narrator's (required). A crash resumes without speaking again what was spoken. " +
			"With chapter, only that chapter's MP3 is made, replacing the last render's (its other files stay)",
		Tags: tags, DefaultStatus: http.StatusAccepted, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *struct {
		BookPath
		Body *struct {
			Speed float64 `json:"speed,omitempty" minimum:"0" maximum:"4" doc:"multiple of the normal rate, 0.25..4; 0 or absent is 1"`
			Check *bool   `json:"check,omitempty" doc:"hear every chunk with the ear (speech recognition): a chunk heard wrong is spoken again once, then marked; absent follows Settings (ear_check, on unless switched off)"`
			// A pointer: chapter 0 is a chapter, absent is the whole book.
			Chapter *int `json:"chapter,omitempty" minimum:"0" maximum:"499" doc:"render only this chapter's MP3 (the chapter's index); absent renders the whole book"`
		} `required:"false"`
	}) (*jobsapi.JobStartedOut, error) {
		req := audiobook.RenderRequest{}
		if in.Body != nil {
			req.Speed, req.Check, req.Chapter = in.Body.Speed, in.Body.Check, in.Body.Chapter
		}
		return jobsapi.Started(svc.StartRender(ctx, in.Book, req))
	})
}

// RenderOutput is a book's last render.
type RenderOutput struct {
	Body RenderView
}

// RenderView is the render with where to download each file.
type RenderView struct {
	audiobook.RenderView
	BookURL     string       `json:"book_url,omitempty" doc:"the M4B once made (redirects to a short-lived URL)"`
	ChapterURLs []ChapterURL `json:"chapter_urls"`
}

// ChapterURL is where a chapter's MP3 is.
type ChapterURL struct {
	Chapter int    `json:"chapter"`
	Title   string `json:"title"`
	URL     string `json:"url" doc:"redirects to a short-lived URL of the MP3"`
	// TimingsURL is absent for a chapter rendered before timings were kept.
	TimingsURL string `json:"timings_url,omitempty" doc:"the MP3's sentence timings"`
}

func getRender(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-book-render", Method: http.MethodGet, Path: bookPath + "/render",
		Summary: "The book's last render: status, progress, and the files made so far with their download URLs", Tags: tags,
	}, func(ctx context.Context, in *BookPath) (*RenderOutput, error) {
		r, err := svc.Render(ctx, in.Book)
		if err != nil {
			return nil, err
		}
		v := RenderView{RenderView: r, ChapterURLs: []ChapterURL{}}
		base := strings.Replace(bookPath, "{book}", in.Book, 1) + "/render"
		if r.Book != nil {
			v.BookURL = base + "/audio"
		}
		for _, c := range r.Chapters {
			cu := ChapterURL{Chapter: c.Chapter, Title: c.Title, URL: fmt.Sprintf("%s/chapters/%d/audio", base, c.Chapter)}
			if c.TimingsKey != "" {
				cu.TimingsURL = fmt.Sprintf("%s/chapters/%d/timings", base, c.Chapter)
			}
			v.ChapterURLs = append(v.ChapterURLs, cu)
		}
		return &RenderOutput{Body: v}, nil
	})
}

// RedirectOutput sends the player to a short-lived URL of the audio.
type RedirectOutput struct {
	Status   int
	Location string `header:"Location"`
}

func renderAudio(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-book-audio", Method: http.MethodGet, Path: bookPath + "/render/audio",
		Summary: "The book's M4B (redirect to a short-lived URL); 409 until the render made it", Tags: tags, DefaultStatus: http.StatusFound,
	}, func(ctx context.Context, in *BookPath) (*RedirectOutput, error) {
		url, err := svc.AudioURL(ctx, in.Book, -1)
		return &RedirectOutput{Status: http.StatusFound, Location: url}, err
	})
}

func chapterAudio(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-book-chapter-audio", Method: http.MethodGet, Path: bookPath + "/render/chapters/{chapter}/audio",
		Summary: "A chapter's MP3 (redirect to a short-lived URL); 409 until the render made it", Tags: tags, DefaultStatus: http.StatusFound,
	}, func(ctx context.Context, in *struct {
		BookPath
		Chapter int `path:"chapter" minimum:"0" maximum:"499" doc:"the chapter's index"`
	}) (*RedirectOutput, error) {
		url, err := svc.AudioURL(ctx, in.Book, in.Chapter)
		return &RedirectOutput{Status: http.StatusFound, Location: url}, err
	})
}

// TimingsOutput is a chapter's sentence timings.
type TimingsOutput struct {
	Body render.Timings
}

func chapterTimings(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-book-chapter-timings", Method: http.MethodGet, Path: bookPath + "/render/chapters/{chapter}/timings",
		Summary: "Where each sentence of a chapter's MP3 starts and ends, for a player; 409 until the render made it", Tags: tags,
	}, func(ctx context.Context, in *struct {
		BookPath
		Chapter int `path:"chapter" minimum:"0" maximum:"499" doc:"the chapter's index"`
	}) (*TimingsOutput, error) {
		tm, err := svc.ChapterTimings(ctx, in.Book, in.Chapter)
		return &TimingsOutput{Body: tm}, err
	})
}

// revisionOf reads the book revision an If-Match names (its ETag).
func revisionOf(ifMatch string) (int64, error) {
	rev, err := strconv.ParseInt(strings.Trim(strings.TrimPrefix(ifMatch, "W/"), `"`), 10, 64)
	if err != nil || rev <= 0 {
		return 0, huma.Error400BadRequest("If-Match must be the book's ETag (its revision number)")
	}
	return rev, nil
}
