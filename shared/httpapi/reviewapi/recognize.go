package reviewapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/review"
)

// RecognizeIn chooses the engine, and the region when only one is read again.
type RecognizeIn struct {
	PagePath
	Body struct {
		// The enum is pipeline.Engines (TestRecognizeEnumIsThePipelinesEngines).
		Engine   string `json:"engine" enum:"text-layer,vision-primary,vision-fallback,tesseract" doc:"the one engine to read with: the PDF's text layer, the primary or fallback vision engine of the settings, or Tesseract; no other engine is tried"`
		RegionID string `json:"region_id,omitempty" pattern:"^[A-Za-z0-9_.-]{1,64}$" doc:"read only this text region's box again and replace its text; without it the whole page is read again and its regions replaced"`
	}
}

// RecognizeOut is the page read again (its regions replaced), or the one
// region read again.
type RecognizeOut struct {
	Body struct {
		Engine string           `json:"engine" doc:"the engine that read it"`
		Page   *magazine.Page   `json:"page,omitempty" doc:"the page with its new regions (a page read again)"`
		Region *magazine.Region `json:"region,omitempty" doc:"the region with its new text (a region read again)"`
		review.Outcome
	}
}

func recognizePage(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "recognize-page", Method: http.MethodPost, Path: "/api/magazine/{doc}/pages/{page}/recognize",
		Summary: "Read a page (or one text region) again with one chosen engine; a page's regions are replaced, undoably. " +
			"An engine that fails or finds nothing changes nothing"}),
		func(ctx context.Context, in *RecognizeIn) (*RecognizeOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			out := &RecognizeOut{}
			out.Body.Engine = in.Body.Engine
			if in.Body.RegionID != "" {
				r, o, err := ed.RereadRegion(ctx, in.Doc, in.Page, in.Body.RegionID, in.Body.Engine, v)
				if err != nil {
					return nil, err
				}
				out.Body.Region, out.Body.Outcome = &r, o
				return out, nil
			}
			p, o, err := ed.Recognize(ctx, in.Doc, in.Page, in.Body.Engine, v)
			if err != nil {
				return nil, err
			}
			out.Body.Page, out.Body.Outcome = &p, o
			return out, nil
		})
}
