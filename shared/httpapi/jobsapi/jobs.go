// Package jobsapi is how a client follows any background job another
// operation started (a figure description, an ingest): GET /api/jobs/{id}
// answers its status, progress, message, error and result, polled with
// If-None-Match like an issue.
package jobsapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/platform"
)

// Module is the job status operation over the platform's job queue.
func Module(d *platform.Deps) (platform.Module, error) {
	return platform.Module{Name: "jobs", Operations: Operations(d.Jobs)}, nil
}

// Operations lists the job operations.
func Operations(q jobs.Queue) []httpapi.Operation {
	return []httpapi.Operation{getJob(q)}
}

// StatusPath is where a job's status is read; operations that start a job
// answer it as their status URL.
func StatusPath(id string) string { return "/api/jobs/" + id }

// View is a job as clients see it: its payload stays on the server.
type View struct {
	ID       string      `json:"id"`
	Kind     string      `json:"kind" doc:"what the job does, e.g. magazine.describe"`
	Status   jobs.Status `json:"status" enum:"queued,running,succeeded,failed"`
	Progress float64     `json:"progress" minimum:"0" maximum:"1"`
	Message  string      `json:"message,omitempty" doc:"what the job is doing, or how it ended"`
	Error    string      `json:"error,omitempty" doc:"why it failed (or, while queued again, why the last attempt did)"`
	// Result is the kind's own document, once the job succeeded.
	Result  json.RawMessage `json:"result,omitempty" doc:"the job's result once it succeeded; its shape depends on the kind"`
	Created time.Time       `json:"created"`
	Updated time.Time       `json:"updated"`
}

// ViewOf is a job's client view.
func ViewOf(j jobs.Job) View {
	return View{ID: j.ID, Kind: j.Kind, Status: j.Status, Progress: j.Progress, Message: j.Message, Error: j.Error,
		Result: j.Result, Created: j.Created, Updated: j.Updated}
}

// JobOutput answers GET /api/jobs/{id}.
type JobOutput struct {
	ETag string `header:"ETag"`
	Body View
}

func getJob(q jobs.Queue) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-job", Method: http.MethodGet, Path: "/api/jobs/{id}",
		Summary: "A background job's status, progress, message, error and result; poll with If-None-Match (304 while unchanged)",
		Tags:    []string{"jobs"},
	}, func(ctx context.Context, in *struct {
		ID          string `path:"id" pattern:"^[A-Za-z0-9_-]{1,64}$" doc:"the job id an operation answered"`
		IfNoneMatch string `header:"If-None-Match" required:"false"`
	}) (*JobOutput, error) {
		j, err := q.Get(ctx, in.ID)
		if err != nil {
			return nil, err
		}
		etag := fmt.Sprintf(`W/"v%d"`, j.Version)
		if in.IfNoneMatch == etag {
			return nil, huma.Status304NotModified()
		}
		return &JobOutput{ETag: etag, Body: ViewOf(j)}, nil
	})
}
