package reviewapi

import (
	"context"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/review"
)

// ViewIn is GET …/pages/{page}/view: a part of the page and the resolution
// to draw it at.
type ViewIn struct {
	Doc         string  `path:"doc" pattern:"^[a-z0-9]{8,40}$" doc:"issue id"`
	Page        int     `path:"page" minimum:"1" maximum:"100000"`
	DPI         int     `query:"dpi" required:"true" minimum:"36" maximum:"600" doc:"resolution in dots per inch (72 is one pixel a point)"`
	X           float64 `query:"x" minimum:"0" maximum:"100000" doc:"left edge in points from the page's left"`
	Y           float64 `query:"y" minimum:"0" maximum:"100000" doc:"top edge in points from the page's top"`
	W           float64 `query:"w" required:"true" exclusiveMinimum:"0" maximum:"100000" doc:"width in points"`
	H           float64 `query:"h" required:"true" exclusiveMinimum:"0" maximum:"100000" doc:"height in points"`
	IfNoneMatch string  `header:"If-None-Match" required:"false"`
}

// ViewOut is the drawn area as PNG.
type ViewOut struct {
	ContentType  string `header:"Content-Type"`
	CacheControl string `header:"Cache-Control"`
	ETag         string `header:"ETag"`
	Body         []byte
}

// A page's drawing never changes (an issue's PDF is kept as uploaded; the
// regions over it are the page record's), so a view is cached for a day.
const viewCache = "private, max-age=86400, immutable"

func pageView(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-page-view", Method: http.MethodGet, Path: "/api/magazine/{doc}/pages/{page}/view",
		Summary: fmt.Sprintf("A part of a page drawn from its PDF at a chosen resolution (PNG): a zoomed view stays sharp. "+
			"The area is cut to the page; an area off the page, or one over %d pixels drawn, answers 422", review.MaxViewPixels),
		Tags: tags,
		Responses: map[string]*huma.Response{"200": {
			Description: "The area as PNG",
			Content:     map[string]*huma.MediaType{"image/png": {Schema: &huma.Schema{Type: "string", Format: "binary"}}},
		}},
		Errors: []int{http.StatusNotFound, http.StatusUnprocessableEntity},
	}, func(ctx context.Context, in *ViewIn) (*ViewOut, error) {
		etag := fmt.Sprintf(`"%s-%d-%d-%g-%g-%g-%g"`, in.Doc, in.Page, in.DPI, in.X, in.Y, in.W, in.H)
		if in.IfNoneMatch == etag {
			return nil, huma.Status304NotModified()
		}
		png, err := ed.View(ctx, in.Doc, in.Page, in.DPI, magazine.BBox{in.X, in.Y, in.W, in.H})
		if err != nil {
			return nil, err
		}
		return &ViewOut{ContentType: "image/png", CacheControl: viewCache, ETag: etag, Body: png}, nil
	})
}
