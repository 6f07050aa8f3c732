package app

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/audiobook"
	"github.com/lectern/lectern/shared/blob/localfs"
	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/features"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/jobs/sqsjobs"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/pipeline/visionocr"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/readaloud"
	"github.com/lectern/lectern/shared/review"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/speech/render"
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

// workerStores are a worker test's table and blobs, closed at its end.
func workerStores(t *testing.T) (*bolt.Table, *localfs.Store) {
	t.Helper()
	dir := t.TempDir()
	table, err := bolt.Open(filepath.Join(dir, "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { table.Close() })
	blobs, err := localfs.New(filepath.Join(dir, "blobs"), "http://127.0.0.1", []byte("0123456789abcdef0123456789abcdef"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blobs.Close() })
	return table, blobs
}

// TestWorkerRunsEveryRegisteredKind builds the worker Lambda's handler as
// main() does, in AWS mode, and feeds it a real SQS event for each job kind
// any feature registers: every kind must be registered and must run to
// success there, not only in the local pool.
func TestWorkerRunsEveryRegisteredKind(t *testing.T) {
	ctx := context.Background()
	table, blobs := workerStores(t)
	queue := &sentMessages{}
	d := &platform.Deps{
		Config: platform.Config{Mode: platform.ModeAWS, Instance: "default"},
		Log:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		Clock:  time.Now, Table: table, Blobs: blobs, Uploads: blobs,
		Jobs:     sqsjobs.New(table, queue, "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs", time.Now),
		Settings: settings.NewService(table, "default"),
	}
	handler, err := awsapp.Worker(d, features.All()...)
	if err != nil {
		t.Fatal(err)
	}

	// A payload for every kind a feature offers; a kind without one fails
	// the test, so a new job kind cannot skip this check.
	mag, err := magazineapi.New(d, visionocr.NewSteps(d))
	if err != nil {
		t.Fatal(err)
	}
	// The renderer speaks through a TTS card (AWS has no espeak-ng) that a
	// local server answers as OpenAI's /v1/audio/speech would.
	tts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "audio/wav")
		w.Write(silentWAV(24000, 12000))
	}))
	defer tts.Close()
	if _, err := d.Settings.Update(ctx, settings.Update{EngineURLAllowlist: []string{"127.0.0.1"}}); err != nil {
		t.Fatal(err)
	}
	cardSvc := cards.NewService(table, d.Settings, cards.Options{Instance: "default", Hosted: true})
	if _, err := cardSvc.Put(ctx, cards.Card{Name: "tts", Spec: cards.Spec{Kind: cards.KindTTS, BaseURL: tts.URL + "/v1"}}); err != nil {
		t.Fatal(err)
	}
	payloads := map[string]func(t *testing.T) json.RawMessage{
		render.JobKind: func(t *testing.T) json.RawMessage {
			return json.RawMessage(`{"text":"Hello there. Goodbye.","voice_id":"v","format":"mp3","engine":"tts","engine_voice":"alloy","output":"speech/renders/w/"}`)
		},
		// Describe the picture of an issue ingested in-process with a vision
		// engine that a local server answers as a chat completion would.
		review.DescribeJobKind: func(t *testing.T) json.RawMessage {
			is, err := mag.IngestFile(ctx, "described", bytes.NewReader(samplePDF()))
			if err != nil {
				t.Fatal(err)
			}
			p, _, err := mag.Issues.Repo.Page(ctx, is.ID, 1)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(p.Regions, func(r magazine.Region) bool { return magazine.IsVisual(r.Kind) })
			if i < 0 {
				t.Fatal("the sample's page 1 has no picture")
			}
			vision := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeChatAnswer(w, "A pier at dawn.") }))
			t.Cleanup(vision.Close)
			url := vision.URL + "/v1"
			if _, err := d.Settings.Update(ctx, settings.Update{VisionOCRURL: &url}); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(map[string]any{"issue": is.ID, "image": magazine.RegionRef{Page: 1, Region: p.Regions[i].ID}})
			return b
		},
		// A deterministic script of an approved article of an issue
		// ingested in-process (no LLM: the script reads the article).
		readaloud.ScriptJobKind: func(t *testing.T) json.RawMessage {
			is, err := mag.IngestFile(ctx, "podcast", bytes.NewReader(samplePDF()))
			if err != nil {
				t.Fatal(err)
			}
			p, _, err := mag.Issues.Repo.Page(ctx, is.ID, 1)
			if err != nil {
				t.Fatal(err)
			}
			var refs []magazine.RegionRef
			for _, r := range p.Regions {
				if r.Kind == magazine.KindHeadline || r.Kind == magazine.KindParagraph {
					refs = append(refs, magazine.RegionRef{Page: 1, Region: r.ID})
				}
			}
			ed := review.NewEditor(review.New(d.Table, d.Clock), pipeline.NewSteps(d).Pages)
			a, _, err := ed.CreateArticle(ctx, is.ID, "Harbour", refs)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := ed.Approve(ctx, is.ID, a.ID, a.Regions, a.Images); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(map[string]any{"issue": is.ID, "article": a.ID, "minutes": 5, "mode": "deterministic",
				"hosts": []map[string]string{{"name": "Ada", "voice_id": "v1"}, {"name": "Ben", "voice_id": "v2"}}})
			return b
		},
		// Refine the figures of an issue ingested in-process.
		issues.RefineJobKind: func(t *testing.T) json.RawMessage {
			is, err := mag.IngestFile(ctx, "refined", bytes.NewReader(samplePDF()))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(map[string]string{"issue": is.ID})
			return b
		},
		// A small book imported in-process, cast by a stand-in LLM on
		// 127.0.0.1 (span mode with verify), then voiced through the card.
		audiobook.CastJobKind: func(t *testing.T) json.RawMessage {
			llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var req struct {
					Messages []struct {
						Content string `json:"content"`
					} `json:"messages"`
				}
				if json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) != 2 {
					http.Error(w, "not a chat completion", http.StatusBadRequest)
					return
				}
				writeChatAnswer(w, speakersAnswer(req.Messages[1].Content, "Alice"))
			}))
			t.Cleanup(llm.Close)
			url := llm.URL + "/v1"
			if _, err := d.Settings.Update(ctx, settings.Update{LLMURL: &url}); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(map[string]any{"book_id": workerBook(t, d), "mode": "span", "verify": true, "run": "w1"})
			return b
		},
		// An upload stored importing by the API function; the worker
		// makes it ready.
		audiobook.ImportJobKind: func(t *testing.T) json.RawMessage {
			b, _, err := audiobook.NewService(d.Table, d.Blobs, d.Jobs, nil, d.Clock, nil, nil).StartImport(ctx, "garden.txt", []byte(smallBook))
			if err != nil {
				t.Fatal(err)
			}
			p, _ := json.Marshal(map[string]string{"book_id": b.ID})
			return p
		},
		audiobook.RenderJobKind: func(t *testing.T) json.RawMessage {
			b, _ := json.Marshal(map[string]any{"book_id": workerBook(t, d), "run": "w2", "narrator": "v", "speakers": map[string]string{},
				"voices": map[string]any{"v": map[string]string{"engine": "tts", "engine_voice": "alloy"}}})
			return b
		},
		pipeline.JobKind: func(t *testing.T) json.RawMessage {
			is, err := mag.Issues.Accept(ctx, "harbour", bytes.NewReader(samplePDF()))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(pipeline.PrepareInput{SourceKey: is.SourceKey, Title: is.Title})
			return b
		},
	}
	for kind, payload := range characterPayloads(ctx, d, cardSvc) {
		payloads[kind] = payload
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
	i := slices.IndexFunc(list, func(is magazine.Issue) bool { return is.Title == "harbour" })
	if err != nil || i < 0 || list[i].Status != magazine.IssueReady || list[i].PagesDone != 3 {
		t.Fatalf("issues after the ingest job = %+v, %v", list, err)
	}
}

// workerBook imports the small book in-process and answers its id.
func workerBook(t *testing.T, d *platform.Deps) string {
	t.Helper()
	b, err := audiobook.NewService(d.Table, d.Blobs, d.Jobs, nil, d.Clock, nil, nil).Import(context.Background(), "garden.txt", []byte(smallBook))
	if err != nil {
		t.Fatal(err)
	}
	return b.ID
}

// silentWAV is n samples of 16-bit mono silence at rate, as a WAV file.
func silentWAV(rate, n int) []byte {
	b := make([]byte, 44+2*n)
	le := binary.LittleEndian
	copy(b[0:], "RIFF")
	le.PutUint32(b[4:], uint32(36+2*n))
	copy(b[8:], "WAVEfmt ")
	le.PutUint32(b[16:], 16)
	le.PutUint16(b[20:], 1)
	le.PutUint16(b[22:], 1)
	le.PutUint32(b[24:], uint32(rate))
	le.PutUint32(b[28:], uint32(2*rate))
	le.PutUint16(b[32:], 2)
	le.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	le.PutUint32(b[40:], uint32(2*n))
	return b
}
