package pipeline

import (
	"context"

	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/review"
)

// NewSteps builds the ingest steps over the platform: the same in the local
// runner, in each step's Lambda and under review, which shares Pages. Its
// OCR chain is Tesseract alone; visionocr.NewSteps adds the vision OCR
// engines, so that only what reads pages links their client.
func NewSteps(d *platform.Deps) *Steps {
	repo := issues.NewRepo(d.Table, d.Clock)
	return &Steps{
		Repo: repo,
		Pages: &Pages{
			Blobs: d.Blobs, Sources: d.Uploads, Splits: repo, Limits: pdf.DefaultLimits(), DPI: DefaultDPI,
			TextWithRender: !d.Hosted(),
			LendRenders:    !d.Hosted(),
			OCR: func(context.Context) (OCRChain, error) {
				return OCRChain{Tesseract: tesseract.Engine{Command: d.Config.TesseractCommand}}, nil
			},
		},
	}
}

// Proposing makes s's Finalize propose the issue's articles (review's
// ProposeArticles). Only what finishes issues wires it (the Finalize
// function, the local runner), so the other step functions link no
// article storage and need no grant for it.
func Proposing(s *Steps, d *platform.Deps) *Steps {
	s.Propose = review.New(d.Table, d.Clock).ProposeWhileIngesting
	return s
}
