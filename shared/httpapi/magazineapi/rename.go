package magazineapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
)

// RenameInput is PATCH /api/magazine/{doc}.
type RenameInput struct {
	ID   string `path:"doc" pattern:"^[a-z0-9]{8,40}$" doc:"issue id"`
	Body struct {
		Title string `json:"title" minLength:"1" maxLength:"200" doc:"the new title; spaces at either end are dropped, and some other character must remain"`
	}
}

// RenameOutput is the renamed issue.
type RenameOutput struct{ Body magazine.Issue }

func renameIssue(svc *issues.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "rename-issue", Method: http.MethodPatch, Path: "/api/magazine/{doc}",
		Summary: "Rename an issue (in any state)", Tags: tags, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *RenameInput) (*RenameOutput, error) {
		is, err := svc.Rename(ctx, in.ID, in.Body.Title)
		if err != nil {
			return nil, err
		}
		return &RenameOutput{Body: is}, nil
	})
}
