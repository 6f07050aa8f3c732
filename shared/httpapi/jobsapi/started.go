package jobsapi

import (
	"net/http"

	"github.com/lectern/lectern/shared/jobs"
)

// JobStartedOut answers an operation that started a background job: 202
// with the job's status URL, which every feature's job operations share.
type JobStartedOut struct {
	Status   int
	Location string `header:"Location" doc:"the job's status URL"`
	Body     struct {
		JobID     string      `json:"job_id"`
		Status    jobs.Status `json:"status" enum:"queued,running,succeeded,failed"`
		StatusURL string      `json:"status_url" doc:"GET it to follow the job (status, progress, message, error, result)"`
	}
}

// Started answers a job an operation queued, or its error.
func Started(j jobs.Job, err error) (*JobStartedOut, error) {
	if err != nil {
		return nil, err
	}
	out := &JobStartedOut{Status: http.StatusAccepted, Location: StatusPath(j.ID)}
	out.Body.JobID, out.Body.Status, out.Body.StatusURL = j.ID, j.Status, StatusPath(j.ID)
	return out, nil
}
