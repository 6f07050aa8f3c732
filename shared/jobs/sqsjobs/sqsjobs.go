// Package sqsjobs is the jobs.Queue of the AWS deployment: Enqueue stores the
// job record and sends its id to the job queue (SQS), and Handler is the
// worker Lambda's entry point, running each delivered job with a jobs.Runner.
//
// SQS delivers at least once, and a job record (not the message) is the
// truth about a job, so the message carries only {"job_id": "..."}.
//
// Which records of a batch are reported as failures (SQS then delivers them
// again after the visibility timeout, and moves them to the dead-letter queue
// after maxReceiveCount receives):
//
//   - retried: a malformed body (it can never run, but it lands in the
//     dead-letter queue where someone will see it, instead of vanishing), and
//     a job that did not reach a final state: the handler returned
//     jobs.Transient(err), the run was interrupted, the table failed, or
//     another worker still holds the job's lease.
//   - acknowledged: a job that is now final, whether it succeeded or failed
//     (a handler's ordinary error is a permanent failure: retrying would fail
//     again), a job already final from an earlier delivery, a delivery
//     superseded by a newer attempt, and an id with no job record — the
//     record is written before the message is sent and read back
//     consistently, so a missing one was deleted and nothing could ever run it.
//
// The runner caps attempts (jobs.RunnerOptions.MaxAttempts, the queue's
// maxReceiveCount), so a job that keeps failing transiently ends as a failed
// record rather than only as a dead letter.
package sqsjobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/store"
)

// Sender is the part of the SQS client Enqueue uses (*sqs.Client has it).
type Sender interface {
	SendMessage(ctx context.Context, in *sqs.SendMessageInput, optFns ...func(*sqs.Options)) (*sqs.SendMessageOutput, error)
}

// Message is the body of a job queue message.
type Message struct {
	JobID string `json:"job_id"`
}

// Queue enqueues jobs to SQS. It is a jobs.Queue.
type Queue struct {
	table    store.Table
	client   Sender
	queueURL string
	now      func() time.Time
}

var _ jobs.Queue = (*Queue)(nil)

// New builds a Queue sending to queueURL. now is the clock (nil: time.Now).
func New(table store.Table, client Sender, queueURL string, now func() time.Time) *Queue {
	if now == nil {
		now = time.Now
	}
	return &Queue{table: table, client: client, queueURL: queueURL, now: now}
}

// Enqueue writes the queued record first, so a worker never receives an id it
// cannot read, then sends the message. If the send fails the record is
// removed again: the caller gets an error and no job is left queued that no
// message will ever start.
func (q *Queue) Enqueue(ctx context.Context, kind string, payload json.RawMessage) (jobs.Job, error) {
	job, err := jobs.New(kind, payload, q.now())
	if err != nil {
		return jobs.Job{}, fmt.Errorf("enqueue: %w", err)
	}
	item, err := jobs.Item(job)
	if err != nil {
		return jobs.Job{}, fmt.Errorf("enqueue: %w", err)
	}
	if err := q.table.Put(ctx, item, store.IfAbsent()); err != nil {
		return jobs.Job{}, fmt.Errorf("enqueue %s job: %w", kind, err)
	}
	body, err := json.Marshal(Message{JobID: job.ID})
	if err != nil {
		return jobs.Job{}, fmt.Errorf("enqueue: %w", err)
	}
	_, err = q.client.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl:    aws.String(q.queueURL),
		MessageBody: aws.String(string(body)),
		// For people reading the queue or the dead-letter queue; the worker
		// reads the kind from the record.
		MessageAttributes: map[string]types.MessageAttributeValue{
			"kind": {DataType: aws.String("String"), StringValue: aws.String(kind)},
		},
	})
	if err != nil {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if derr := q.table.Delete(dctx, item.PK, item.SK, store.IfVersion(job.Version)); derr != nil {
			return jobs.Job{}, fmt.Errorf("enqueue %s job %s: send: %w (and removing the record failed: %v)", kind, job.ID, err, derr)
		}
		return jobs.Job{}, fmt.Errorf("enqueue %s job: send: %w", kind, err)
	}
	return job, nil
}

// Get reads a job record.
func (q *Queue) Get(ctx context.Context, id string) (jobs.Job, error) {
	return jobs.Get(ctx, q.table, id)
}

// ParseMessage reads a message body; anything but a JSON object with a
// well-formed job_id is an error. Unknown fields are allowed, so a newer
// sender can add some without breaking older workers.
func ParseMessage(body string) (Message, error) {
	var m Message
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		return Message{}, fmt.Errorf("job message: %w", err)
	}
	if err := jobs.ValidateID(m.JobID); err != nil {
		return Message{}, fmt.Errorf("job message: %w", err)
	}
	return m, nil
}

// Handler returns the worker Lambda's handler. It runs the batch's jobs one
// after another and reports the records to deliver again (see the package
// doc for the rule); it never fails the whole batch, which would redeliver
// jobs that already finished. The event source mapping must have
// FunctionResponseTypes: [ReportBatchItemFailures]. log nil: slog.Default().
func Handler(runner *jobs.Runner, log *slog.Logger) func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) {
	if log == nil {
		log = slog.Default()
	}
	return func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
		// Stop handlers a little before the invocation's deadline, so the
		// runner can still record an interrupted job as queued again instead
		// of leaving it "running" until its lease lapses.
		if deadline, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, deadline.Add(-deadlineMargin))
			defer cancel()
		}
		resp := events.SQSEventResponse{BatchItemFailures: []events.SQSBatchItemFailure{}}
		for _, rec := range ev.Records {
			if retry := handleRecord(ctx, runner, log, rec); retry {
				resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: rec.MessageId})
			}
		}
		return resp, nil
	}
}

// deadlineMargin is the time kept back from handlers at the end of an
// invocation for the runner's bookkeeping.
const deadlineMargin = 3 * time.Second

// handleRecord runs one record's job and says whether SQS should deliver it again.
func handleRecord(ctx context.Context, runner *jobs.Runner, log *slog.Logger, rec events.SQSMessage) bool {
	msg, err := ParseMessage(rec.Body)
	if err != nil {
		log.Error("malformed job message", "message_id", rec.MessageId, "receive_count", rec.Attributes["ApproximateReceiveCount"], "err", err)
		return true
	}
	if ctx.Err() != nil {
		// The invocation is out of time: leave the rest of the batch for later.
		return true
	}
	job, err := runner.Run(ctx, msg.JobID)
	switch {
	case err == nil:
		log.Info("job finished", "job", job.ID, "kind", job.Kind, "status", job.Status, "attempts", job.Attempts)
		return false
	case errors.Is(err, jobs.ErrNotFound):
		log.Warn("job message names no job; dropping it", "message_id", rec.MessageId, "job", msg.JobID)
		return false
	case errors.Is(err, jobs.ErrSuperseded):
		log.Warn("job delivery superseded by a newer attempt", "job", msg.JobID, "err", err)
		return false
	default: // ErrTransient, or anything unexpected: trying again is the safe side
		log.Warn("job not finished; SQS will deliver it again", "message_id", rec.MessageId, "job", msg.JobID, "err", err)
		return true
	}
}
