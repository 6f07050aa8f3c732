package readaloud

import (
	"context"
	"fmt"

	"github.com/lectern/lectern/shared/speech/render"
)

// VoiceScript starts a render of an article's podcast script as it is
// stored (generated or edited): one chapter whose segments are the turns,
// each in its host's voice.
func (p *Podcasts) VoiceScript(ctx context.Context, issue, article, format string) (render.Status, error) {
	rec, err := p.Script(ctx, issue, article)
	if err != nil {
		return render.Status{}, err
	}
	if rec.Script == nil || len(rec.Script.Turns) == 0 {
		return render.Status{}, fmt.Errorf("%w: article %s has no podcast script to voice (its last generation failed: %s)", ErrNotFound, article, rec.Error)
	}
	if len(rec.Script.Hosts) != 2 {
		return render.Status{}, fmt.Errorf("%w: the script of article %s has %d hosts, not 2", ErrInvalid, article, len(rec.Script.Hosts))
	}
	return p.listen.renders.Start(ctx, VoiceSpec(*rec.Script, format))
}

// VoiceSpec is the render of a script: one chapter titled with the
// script's title, a segment per turn in its host's voice; the first host's
// voice is the render's, and the hosts are the file's artist.
func VoiceSpec(s Script, format string) render.Spec {
	chapter := render.Chapter{Title: s.Title}
	for _, t := range s.Turns {
		chapter.Segments = append(chapter.Segments, render.Segment{VoiceID: s.Hosts[t.Host].VoiceID, Text: t.Text})
	}
	return render.Spec{
		Chapters: []render.Chapter{chapter}, VoiceID: s.Hosts[0].VoiceID, Format: format,
		Title: s.Title, Artist: s.Hosts[0].Name + " and " + s.Hosts[1].Name,
	}
}
