package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/lectern/lectern/shared/blob/localfs"
	"github.com/lectern/lectern/shared/features"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/jobs/sqsjobs"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store/bolt"
)

// sentMessages keeps what the SQS queue would have sent, so the test can
// deliver exactly those messages to the worker.
type sentMessages struct {
	mu   sync.Mutex
	sent []*sqs.SendMessageInput
}

func (s *sentMessages) SendMessage(_ context.Context, in *sqs.SendMessageInput, _ ...func(*sqs.Options)) (*sqs.SendMessageOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, in)
	return &sqs.SendMessageOutput{MessageId: aws.String("m")}, nil
}

// TestWorkerRunsEveryRegisteredKind builds the worker Lambda's handler as
// main() does, in AWS mode, and feeds it a real SQS event for each job kind
// any feature registers: every kind must be registered and must run to
// success there, not only in the local pool.
func TestWorkerRunsEveryRegisteredKind(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	table, err := bolt.Open(filepath.Join(dir, "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer table.Close()
	blobs, err := localfs.New(filepath.Join(dir, "blobs"), "http://127.0.0.1", []byte("0123456789abcdef0123456789abcdef"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer blobs.Close()
	queue := &sentMessages{}
	d := &platform.Deps{
		Config: platform.Config{Mode: platform.ModeAWS, Instance: "default"},
		Log:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		Clock:  time.Now, Table: table, Blobs: blobs, Uploads: blobs,
		Jobs:     sqsjobs.New(table, queue, "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs", time.Now),
		Settings: settings.NewService(table, "default"),
	}
	handler, err := Worker(d, features.All()...)
	if err != nil {
		t.Fatal(err)
	}

	// A payload for every kind a feature offers; a kind without one fails
	// the test, so a new job kind cannot skip this check.
	mag, err := magazineapi.New(d)
	if err != nil {
		t.Fatal(err)
	}
	payloads := map[string]func(t *testing.T) json.RawMessage{
		pipeline.JobKind: func(t *testing.T) json.RawMessage {
			is, err := mag.Issues.Accept(ctx, "harbour", samplePDF())
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(pipeline.PrepareInput{SourceKey: is.SourceKey, Title: is.Title})
			return b
		},
	}
	modules, err := platform.Build(d, features.All()...)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, m := range modules {
		for kind := range m.Jobs {
			kinds = append(kinds, kind)
		}
	}
	slices.Sort(kinds)
	if len(kinds) == 0 {
		t.Fatal("no feature registers a job kind")
	}

	raw, err := os.ReadFile("../jobs/sqsjobs/testdata/sqs-event.json")
	if err != nil {
		t.Fatal(err)
	}
	var template events.SQSEvent
	if err := json.Unmarshal(raw, &template); err != nil {
		t.Fatal(err)
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			payload, ok := payloads[kind]
			if !ok {
				t.Fatalf("no payload for job kind %s: add one to this test", kind)
			}
			job, err := d.Jobs.Enqueue(ctx, kind, payload(t))
			if err != nil {
				t.Fatal(err)
			}
			msg := queue.sent[len(queue.sent)-1]
			rec := template.Records[0] // a real record, with this job's message
			rec.Body = aws.ToString(msg.MessageBody)
			rec.MessageAttributes = map[string]events.SQSMessageAttribute{
				"kind": {DataType: "String", StringValue: msg.MessageAttributes["kind"].StringValue},
			}
			resp, err := handler(ctx, events.SQSEvent{Records: []events.SQSMessage{rec}})
			if err != nil || len(resp.BatchItemFailures) != 0 {
				t.Fatalf("worker = %+v, %v; want the record handled", resp, err)
			}
			got, err := jobs.Get(ctx, table, job.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != jobs.StatusSucceeded {
				t.Fatalf("job %s ended %s: %s", kind, got.Status, got.Error)
			}
		})
	}

	// The ingest job ran the whole state machine: the issue is ready.
	list, err := mag.Issues.Repo.List(ctx)
	if err != nil || len(list) != 1 || list[0].Status != magazine.IssueReady || list[0].PagesDone != 3 {
		t.Fatalf("issues after the ingest job = %+v, %v", list, err)
	}
}
