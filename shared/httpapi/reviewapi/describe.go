package reviewapi

import (
	"context"
	"errors"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/engines/oaichat"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/review"
)

// ImagePath names a picture region of an issue.
type ImagePath struct {
	DocPath
	ImageID string `path:"image_id" pattern:"^[1-9][0-9]{0,5}-[A-Za-z0-9_.-]{1,64}$" doc:"<page>-<region id>, e.g. 3-p1: the page number and the id of the picture region on it (region ids are unique per page, as in a RegionRef)"`
}

func (p ImagePath) ref() (magazine.RegionRef, error) { return magazine.ParseImageID(p.ImageID) }

// DescribeOptions is the optional body of a describe-all.
type DescribeOptions struct {
	Redo bool `json:"redo,omitempty" doc:"describe pictures that already have a description too (default: only those without one)"`
}

// ImageOut is a picture region after its description was set.
type ImageOut struct {
	Body struct {
		Image  string          `json:"image" doc:"the image id"`
		Region magazine.Region `json:"region"`
		review.Outcome
	}
}

const describeResult = " The job's result (GET /api/jobs/{id}) lists each picture's outcome: described (with the engine), " +
	"empty (the engine returned no content: nothing stored), kept (the picture was edited meanwhile; the edit wins) or failed (why)."

func describeImage(d *review.Describer) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "describe-image", Method: http.MethodPost, Path: "/api/magazine/{doc}/images/{image_id}/describe",
		Summary: "Describe one picture as a background job: its stored crop goes to the vision engine (primary, then fallback) with a prompt " +
			"chosen by its visual kind; the answer, one or two sentences, replaces its description. A failure of every engine fails the job with the reason." +
			describeResult,
		DefaultStatus: http.StatusAccepted}),
		func(ctx context.Context, in *ImagePath) (*jobsapi.JobStartedOut, error) {
			ref, err := in.ref()
			if err != nil {
				return nil, err
			}
			return jobsapi.Started(d.DescribeImage(ctx, in.Doc, ref))
		})
}

func describeArticle(d *review.Describer) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "describe-article", Method: http.MethodPost, Path: articlesPath + "/{article}/describe",
		Summary: "Describe the article's pictures that have no description (all with redo) as one background job reporting n of m; " +
			"a picture that fails is recorded and the others go on." + describeResult,
		DefaultStatus: http.StatusAccepted}),
		func(ctx context.Context, in *struct {
			ArticlePath
			Body *DescribeOptions `required:"false"`
		}) (*jobsapi.JobStartedOut, error) {
			return jobsapi.Started(d.DescribeArticle(ctx, in.Doc, in.Article, in.Body != nil && in.Body.Redo))
		})
}

func describeIssue(d *review.Describer) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "describe-issue", Method: http.MethodPost, Path: "/api/magazine/{doc}/describe",
		Summary: "Describe every picture of the issue that has no description (all with redo) as one background job reporting n of m; " +
			"a picture that fails is recorded and the others go on." + describeResult,
		DefaultStatus: http.StatusAccepted}),
		func(ctx context.Context, in *struct {
			DocPath
			Body *DescribeOptions `required:"false"`
		}) (*jobsapi.JobStartedOut, error) {
			return jobsapi.Started(d.DescribeIssue(ctx, in.Doc, in.Body != nil && in.Body.Redo))
		})
}

func patchImage(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "patch-image", Method: http.MethodPatch, Path: "/api/magazine/{doc}/images/{image_id}",
		Summary: "Set a picture's description by hand: one or two sentences; \"\" clears it. Text regions have none (422); " +
			"with If-Match, a page changed since answers 409"}),
		func(ctx context.Context, in *struct {
			ImagePath
			IfMatch string `header:"If-Match" required:"false" doc:"the page version the edit was made on"`
			Body    struct {
				Description string `json:"description" maxLength:"2000" doc:"one or two sentences; \"\" clears the description"`
			}
		}) (*ImageOut, error) {
			ref, err := in.ref()
			if err != nil {
				return nil, err
			}
			v, err := PagePath{IfMatch: in.IfMatch}.version()
			if err != nil {
				return nil, err
			}
			r, o, err := ed.SetDescription(ctx, in.Doc, ref, in.Body.Description, v)
			if err != nil {
				return nil, err
			}
			out := &ImageOut{}
			out.Body.Image, out.Body.Region, out.Body.Outcome = in.ImageID, r, o
			return out, nil
		})
}

// describeEngines are the OCR chain's vision engines, primary then
// fallback, from the current settings: describe uses exactly those.
func describeEngines(pages *pipeline.Pages) func(context.Context) ([]review.NamedEngine, error) {
	return func(ctx context.Context) ([]review.NamedEngine, error) {
		if pages.OCR == nil {
			return nil, nil
		}
		chain, err := pages.OCR(ctx)
		if err != nil {
			return nil, err
		}
		var out []review.NamedEngine
		for _, e := range []review.NamedEngine{{Name: pipeline.EngineVisionPrimary, Engine: chain.Primary}, {Name: pipeline.EngineVisionFallback, Engine: chain.Fallback}} {
			if e.Engine != nil {
				out = append(out, review.NamedEngine{Name: e.Name, Engine: emptyIsNoAnswer{e.Engine}})
			}
		}
		return out, nil
	}
}

// emptyIsNoAnswer turns the chat client's empty-content error into the
// empty answer the describer expects: for a description, nothing to say
// is an answer, not a broken engine.
type emptyIsNoAnswer struct{ review.VisionEngine }

func (e emptyIsNoAnswer) Vision(ctx context.Context, prompt string, image []byte, mimeType string) (string, error) {
	answer, err := e.VisionEngine.Vision(ctx, prompt, image, mimeType)
	if errors.Is(err, oaichat.ErrEmptyAnswer) {
		return "", nil
	}
	return answer, err
}
