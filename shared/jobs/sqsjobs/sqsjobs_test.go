package sqsjobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/jobs/jobstest"
	"github.com/lectern/lectern/shared/jobs/sqsjobs"
	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/store/bolt"
)

func tempTable(t *testing.T) *bolt.Table {
	t.Helper()
	tb, err := bolt.Open(filepath.Join(t.TempDir(), "lectern.db"))
	if err != nil {
		t.Fatalf("open bolt table: %v", err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// putJob stores a queued job under a fixed id (the one the event file names).
func putJob(t *testing.T, table store.Table, id, kind string) {
	t.Helper()
	job, err := jobs.New(kind, json.RawMessage(`{"page":3}`), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	job.ID = id
	item, err := jobs.Item(job)
	if err != nil {
		t.Fatal(err)
	}
	if err := table.Put(context.Background(), item, store.IfAbsent()); err != nil {
		t.Fatal(err)
	}
}

func status(t *testing.T, table store.Table, id string) jobs.Job {
	t.Helper()
	job, err := jobs.Get(context.Background(), table, id)
	if err != nil {
		t.Fatalf("get job %s: %v", id, err)
	}
	return job
}

// registry knows three kinds: one that succeeds, one that fails for good,
// one that fails transiently.
func registry(t *testing.T) *jobs.Registry {
	t.Helper()
	reg := jobs.NewRegistry()
	for kind, h := range map[string]jobs.Handler{
		"magazine.describe": func(ctx context.Context, _ json.RawMessage, rep jobs.Reporter) (json.RawMessage, error) {
			if err := rep.Progress(ctx, 0.5, "describing"); err != nil {
				return nil, err
			}
			return json.RawMessage(`{"description":"a lighthouse at dusk"}`), nil
		},
		"characters.portrait": func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
			return nil, errors.New("character has no description to draw from")
		},
		"audiobook.voice": func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
			return nil, jobs.Transient(errors.New("TTS engine answered 503"))
		},
	} {
		if err := reg.Register(kind, h); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

func TestHandlerReportsOnlyRetryableRecords(t *testing.T) {
	raw, err := os.ReadFile("testdata/sqs-event.json")
	if err != nil {
		t.Fatal(err)
	}
	var ev events.SQSEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatalf("decode event: %v", err)
	}
	if len(ev.Records) != 5 || ev.Records[0].EventSource != "aws:sqs" {
		t.Fatalf("unexpected fixture: %d records", len(ev.Records))
	}

	table := tempTable(t)
	const (
		good      = "k3v7q2m4x9p1r8s6t5u2w3y4z7" // record 1: succeeds
		permanent = "p4n6b2c7d3f5g2h4j6k7m2n3q5" // record 4: handler error, final
		transient = "t2r4e6w2q3a5s7d2f4g6h2j3k5" // record 5: handler asks for a retry
		// record 2 has a malformed body; record 3 names a job that does not exist.
	)
	putJob(t, table, good, "magazine.describe")
	putJob(t, table, permanent, "characters.portrait")
	putJob(t, table, transient, "audiobook.voice")

	handler := sqsjobs.Handler(jobs.NewRunner(table, registry(t), jobs.RunnerOptions{}), nil)
	resp, err := handler(context.Background(), ev)
	if err != nil {
		t.Fatalf("handler: %v (it must never fail the whole batch)", err)
	}
	var got []string
	for _, f := range resp.BatchItemFailures {
		got = append(got, f.ItemIdentifier)
	}
	want := []string{
		"b1d2e3f4-5a6b-4c7d-8e9f-0a1b2c3d4e5f", // malformed body
		"9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a", // transient failure
	}
	if !slices.Equal(got, want) {
		t.Errorf("batchItemFailures = %v, want %v", got, want)
	}

	if j := status(t, table, good); j.Status != jobs.StatusSucceeded || !strings.Contains(string(j.Result), "lighthouse") {
		t.Errorf("good job: %+v", j)
	}
	if j := status(t, table, permanent); j.Status != jobs.StatusFailed || j.Error != "character has no description to draw from" {
		t.Errorf("permanently failing job: %+v", j)
	}
	if j := status(t, table, transient); j.Status != jobs.StatusQueued || j.Error != "TTS engine answered 503" {
		t.Errorf("transiently failing job: %+v", j)
	}

	// The response is what the Lambda runtime serialises back to the poller.
	body, _ := json.Marshal(resp)
	wantBody := `{"batchItemFailures":[{"itemIdentifier":"b1d2e3f4-5a6b-4c7d-8e9f-0a1b2c3d4e5f"},{"itemIdentifier":"9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"}]}`
	if string(body) != wantBody {
		t.Errorf("response JSON %s, want %s", body, wantBody)
	}
}

func TestHandlerWithNothingToRetryAnswersEmptyList(t *testing.T) {
	handler := sqsjobs.Handler(jobs.NewRunner(tempTable(t), jobs.NewRegistry(), jobs.RunnerOptions{}), nil)
	resp, err := handler(context.Background(), events.SQSEvent{})
	if err != nil {
		t.Fatal(err)
	}
	if body, _ := json.Marshal(resp); string(body) != `{"batchItemFailures":[]}` {
		t.Errorf("empty batch answered %s", body)
	}
}

func TestParseMessage(t *testing.T) {
	for body, wantOK := range map[string]bool{
		`{"job_id":"k3v7q2m4x9p1r8s6t5u2w3y4z7"}`:               true,
		`{"job_id":"k3v7q2m4x9p1r8s6t5u2w3y4z7","trace":"abc"}`: true,
		`{"job_id":""}`:              false,
		`{"job_id":"../../etc"}`:     false,
		`{"job_id":42}`:              false,
		`{}`:                         false,
		`k3v7q2m4x9p1r8s6t5u2w3y4z7`: false,
		`{"job_id":"a"} trailing`:    false,
	} {
		_, err := sqsjobs.ParseMessage(body)
		if (err == nil) != wantOK {
			t.Errorf("ParseMessage(%s): err %v, want ok=%v", body, err, wantOK)
		}
	}
}

// failingSender is an SQS that refuses every message.
type failingSender struct{}

func (failingSender) SendMessage(context.Context, *sqs.SendMessageInput, ...func(*sqs.Options)) (*sqs.SendMessageOutput, error) {
	return nil, errors.New("AccessDenied")
}

// recordingTable remembers the keys written through it.
type recordingTable struct {
	store.Table
	mu   sync.Mutex
	puts []store.Key
}

func (r *recordingTable) Put(ctx context.Context, item store.Item, cond store.Condition) error {
	r.mu.Lock()
	r.puts = append(r.puts, item.Key())
	r.mu.Unlock()
	return r.Table.Put(ctx, item, cond)
}

func TestEnqueueRemovesRecordWhenSendFails(t *testing.T) {
	table := &recordingTable{Table: tempTable(t)}
	q := sqsjobs.New(table, failingSender{}, "http://127.0.0.1:1/000000000000/nowhere", nil)
	if _, err := q.Enqueue(context.Background(), "magazine.describe", nil); err == nil || !strings.Contains(err.Error(), "AccessDenied") {
		t.Fatalf("Enqueue with a failing send: %v", err)
	}
	if len(table.puts) != 1 {
		t.Fatalf("puts %v, want the one job record", table.puts)
	}
	if _, err := table.Get(context.Background(), table.puts[0].PK, table.puts[0].SK); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("job record still there after the send failed: %v", err)
	}
}

// sqsClient talks to the SQS-compatible server the test setup started.
func sqsClient(t *testing.T) *sqs.Client {
	t.Helper()
	endpoint := os.Getenv("LECTERN_TEST_SQS_ENDPOINT")
	if endpoint == "" {
		t.Fatal("LECTERN_TEST_SQS_ENDPOINT is not set: start ElasticMQ with\n" +
			"\teval \"$(bash infra/elasticmq.sh start)\"\n" +
			"(from the repository root; `bash infra/elasticmq.sh stop` afterwards), or run `make test`")
	}
	return sqs.New(sqs.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
	})
}

// eventFrom turns a received message into the record Lambda's poller would deliver.
func eventFrom(m types.Message, queueARN string) events.SQSMessage {
	attrs := map[string]events.SQSMessageAttribute{}
	for name, v := range m.MessageAttributes {
		attrs[name] = events.SQSMessageAttribute{
			DataType: aws.ToString(v.DataType), StringValue: v.StringValue, BinaryValue: v.BinaryValue,
			StringListValues: v.StringListValues, BinaryListValues: v.BinaryListValues,
		}
	}
	return events.SQSMessage{
		MessageId: aws.ToString(m.MessageId), ReceiptHandle: aws.ToString(m.ReceiptHandle),
		Body: aws.ToString(m.Body), Md5OfBody: aws.ToString(m.MD5OfBody),
		Md5OfMessageAttributes: aws.ToString(m.MD5OfMessageAttributes),
		Attributes:             m.Attributes, MessageAttributes: attrs,
		EventSource: "aws:sqs", EventSourceARN: queueARN, AWSRegion: "us-east-1",
	}
}

// testQueue is a queue of its own on the SQS server, deleted at the end of the test.
type testQueue struct {
	client *sqs.Client
	url    string
	arn    string
}

func newQueue(t *testing.T, client *sqs.Client) testQueue {
	t.Helper()
	ctx := context.Background()
	name := "lectern-jobs-test-" + jobs.NewID()
	created, err := client.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name)})
	if err != nil {
		t.Fatalf("create queue: %v", err)
	}
	url := aws.ToString(created.QueueUrl)
	t.Cleanup(func() {
		if _, err := client.DeleteQueue(context.Background(), &sqs.DeleteQueueInput{QueueUrl: aws.String(url)}); err != nil {
			t.Errorf("delete queue %s: %v", name, err)
		}
	})
	attrs, err := client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl: aws.String(url), AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameQueueArn},
	})
	if err != nil {
		t.Fatalf("queue attributes: %v", err)
	}
	return testQueue{client: client, url: url, arn: attrs.Attributes[string(types.QueueAttributeNameQueueArn)]}
}

// receive takes up to batchSize messages, as the event source mapping does.
func (q testQueue) receive(ctx context.Context) ([]types.Message, error) {
	out, err := q.client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
		QueueUrl: aws.String(q.url), MaxNumberOfMessages: batchSize,
		// Short: Work only receives when the queue holds messages.
		WaitTimeSeconds:             1,
		MessageAttributeNames:       []string{"All"},
		MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAll},
	})
	if err != nil {
		return nil, fmt.Errorf("receive: %w", err)
	}
	return out.Messages, nil
}

// left counts the messages in the queue: visible, in flight and delayed.
func (q testQueue) left(ctx context.Context) (int, error) {
	names := []types.QueueAttributeName{
		types.QueueAttributeNameApproximateNumberOfMessages,
		types.QueueAttributeNameApproximateNumberOfMessagesNotVisible,
		types.QueueAttributeNameApproximateNumberOfMessagesDelayed,
	}
	out, err := q.client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(q.url), AttributeNames: names})
	if err != nil {
		return 0, fmt.Errorf("queue attributes: %w", err)
	}
	n := 0
	for _, name := range names {
		v, err := strconv.Atoi(out.Attributes[string(name)])
		if err != nil {
			return 0, fmt.Errorf("queue attribute %s = %q: %w", name, out.Attributes[string(name)], err)
		}
		n += v
	}
	return n, nil
}

// template.yaml: the event source mapping's BatchSize and the queue's maxReceiveCount.
const (
	batchSize       = 5
	maxReceiveCount = 5
)

func TestContract(t *testing.T) {
	t.Run("sqs-elasticmq", func(t *testing.T) {
		client := sqsClient(t)
		jobstest.Run(t, jobstest.Harness{New: func(t *testing.T, reg *jobs.Registry) jobstest.Fixture {
			return newContractQueue(t, client, reg)
		}})
	})
}

// newContractQueue is a Queue over a fresh bbolt table and a fresh queue on
// ElasticMQ. Its Work plays the Lambda poller: it receives batches, hands
// each to the worker handler as an events.SQSEvent (through JSON, as the
// runtime does), deletes the records the handler did not report and makes
// the reported ones visible again at once (SQS would after the visibility
// timeout), until the queue is empty.
func newContractQueue(t *testing.T, client *sqs.Client, reg *jobs.Registry) jobstest.Fixture {
	table := tempTable(t)
	q := newQueue(t, client)
	log := slog.New(slog.NewTextHandler(t.Output(), nil))
	handler := sqsjobs.Handler(jobs.NewRunner(table, reg, jobs.RunnerOptions{MaxAttempts: maxReceiveCount, Log: log}), log)
	work := func(ctx context.Context) error {
		for {
			n, err := q.left(ctx)
			if err != nil {
				return err
			}
			if n == 0 {
				return nil
			}
			msgs, err := q.receive(ctx)
			if err != nil {
				return err
			}
			if len(msgs) == 0 {
				continue
			}
			if err := deliver(ctx, q, handler, msgs); err != nil {
				return err
			}
		}
	}
	return jobstest.Fixture{Queue: sqsjobs.New(table, client, q.url, nil), Work: work}
}

// deliver runs one batch through the handler and settles its messages.
func deliver(ctx context.Context, q testQueue, handler func(context.Context, events.SQSEvent) (events.SQSEventResponse, error), msgs []types.Message) error {
	ev := events.SQSEvent{}
	for _, m := range msgs {
		if n, _ := strconv.Atoi(m.Attributes[string(types.MessageSystemAttributeNameApproximateReceiveCount)]); n > maxReceiveCount {
			return fmt.Errorf("message %s (%s) received %d times: SQS would have moved it to the dead-letter queue",
				aws.ToString(m.MessageId), aws.ToString(m.Body), n)
		}
		ev.Records = append(ev.Records, eventFrom(m, q.arn))
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	var delivered events.SQSEvent
	if err := json.Unmarshal(raw, &delivered); err != nil {
		return err
	}
	// An invocation with the worker's timeout (template.yaml: 300 s).
	ictx, cancel := context.WithTimeout(ctx, 300*time.Second)
	defer cancel()
	resp, err := handler(ictx, delivered)
	if err != nil {
		return fmt.Errorf("worker handler failed the whole batch: %w", err)
	}
	retry := map[string]bool{}
	for _, f := range resp.BatchItemFailures {
		retry[f.ItemIdentifier] = true
	}
	for _, m := range msgs {
		if retry[aws.ToString(m.MessageId)] {
			_, err = q.client.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{
				QueueUrl: aws.String(q.url), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0,
			})
		} else {
			_, err = q.client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(q.url), ReceiptHandle: m.ReceiptHandle})
		}
		if err != nil {
			return fmt.Errorf("settle message %s: %w", aws.ToString(m.MessageId), err)
		}
	}
	return nil
}

// The contract runs enqueued jobs through the worker; this checks what goes
// on the wire, which people read in the queue and the dead-letter queue.
func TestEnqueueSendsJobIDAndKind(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	q := newQueue(t, sqsClient(t))
	queue := sqsjobs.New(tempTable(t), q.client, q.url, nil)
	job, err := queue.Enqueue(ctx, "magazine.describe", json.RawMessage(`{"issue":"i1","page":3}`))
	if err != nil {
		t.Fatalf("enqueue: %v", err)
	}
	msgs, err := q.receive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 {
		t.Fatalf("received %d messages, want 1", len(msgs))
	}
	msg := msgs[0]
	if body := aws.ToString(msg.Body); body != `{"job_id":"`+job.ID+`"}` {
		t.Errorf("message body %s", body)
	}
	if k := msg.MessageAttributes["kind"]; aws.ToString(k.StringValue) != "magazine.describe" || aws.ToString(k.DataType) != "String" {
		t.Errorf("kind attribute %+v", k)
	}
}

func TestHandlerNearDeadlineLeavesJobQueued(t *testing.T) {
	table := tempTable(t)
	const id = "d2e4f6g2h3j5k7m2n4p6q2r3s5"
	putJob(t, table, id, "slow.render")
	reg := jobs.NewRegistry()
	_ = reg.Register("slow.render", func(ctx context.Context, _ json.RawMessage, _ jobs.Reporter) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	// An invocation with 3.2 s left: handlers get 0.2 s, the rest is for bookkeeping.
	ctx, cancel := context.WithTimeout(context.Background(), 3200*time.Millisecond)
	defer cancel()
	ev := events.SQSEvent{Records: []events.SQSMessage{{MessageId: "m-1", Body: `{"job_id":"` + id + `"}`, EventSource: "aws:sqs"}}}
	resp, err := sqsjobs.Handler(jobs.NewRunner(table, reg, jobs.RunnerOptions{}), nil)(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != "m-1" {
		t.Fatalf("failures %v, err %v; want m-1 reported", resp.BatchItemFailures, err)
	}
	if ctx.Err() != nil {
		t.Fatal("handler used up the whole invocation")
	}
	if j := status(t, table, id); j.Status != jobs.StatusQueued || !strings.Contains(j.Error, "interrupted") {
		t.Errorf("job after the deadline: %s %q", j.Status, j.Error)
	}
}
