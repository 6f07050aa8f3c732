package app

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/voices"
)

// answer is one HTTP answer of a concurrent request.
type answer struct {
	status int
	body   []byte
	err    error
}

// postAtOnce sends n identical POSTs released together, so they race.
func (c *apiClient) postAtOnce(n int, path, body string) []answer {
	out := make([]answer, n)
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(n)
	done.Add(n)
	for i := range out {
		go func() {
			defer done.Done()
			req, err := http.NewRequest(http.MethodPost, c.base+path, bytes.NewReader([]byte(body)))
			if err != nil {
				out[i].err = err
				ready.Done()
				return
			}
			req.Header.Set("Content-Type", "application/json")
			ready.Done()
			<-start
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				out[i].err = err
				return
			}
			defer resp.Body.Close()
			out[i].status = resp.StatusCode
			out[i].body, out[i].err = io.ReadAll(resp.Body)
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	return out
}

// acceptedOnce checks that exactly one of simultaneous starts was accepted
// (202) and every other one is a 409 problem, and answers the job's id.
func acceptedOnce(t *testing.T, what string, answers []answer) string {
	t.Helper()
	id := ""
	for _, a := range answers {
		switch {
		case a.err != nil:
			t.Fatalf("%s: %v", what, a.err)
		case a.status == http.StatusAccepted && id == "":
			id = decode[struct {
				JobID string `json:"job_id"`
			}](t, a.body).JobID
		default:
			assertProblem(t, what, a.status, a.body, http.StatusConflict)
		}
	}
	if id == "" {
		t.Fatalf("%s: no start was accepted", what)
	}
	return id
}

// TestAudiobookStartsAreAtomic: of simultaneous starts of a cast, and of a
// render, exactly one is accepted and the others answer 409 problems; the
// book records the accepted job. Both workers of the local pool are kept
// busy by held casts of two other books, so the accepted jobs stay queued
// while the starts race.
func TestAudiobookStartsAreAtomic(t *testing.T) {
	needSpeechTools(t)
	c := newLocalApp(t)
	llm := newLLMStandIn(t)
	if status, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"llm_url":"`+llm.url+`"}`)); status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, b)
	}
	llm.answers(func(n int) string {
		if prompt := llm.calls()[n-1]; !askedSpan.MatchString(prompt) {
			return classicAnswer(prompt)
		}
		return speakersAnswer(llm.calls()[n-1], "Alice")
	})
	release := llm.holdCalls()
	released := false
	defer func() {
		if !released {
			release()
		}
	}()
	var ids []string
	for i := 0; i < 3; i++ {
		ids = append(ids, c.importBook(fmt.Sprintf("garden%d.txt", i), "text/plain", []byte(smallBook)).ID)
	}
	// Classic casts ask the LLM whatever the rules found.
	busy := []string{c.startJob("/api/attribute-spans", `{"book_id":"`+ids[0]+`","mode":"classic"}`), c.startJob("/api/attribute-spans", `{"book_id":"`+ids[1]+`","mode":"classic"}`)}
	waitUntil(t, "the two casts reach the LLM", func() bool { return len(llm.calls()) >= 2 })
	id := ids[2]

	castJob := acceptedOnce(t, "simultaneous casts", c.postAtOnce(8, "/api/attribute-spans", `{"book_id":"`+id+`"}`))
	if got := c.book(id).CastJob; got != castJob {
		t.Fatalf("the book records cast job %q, the accepted start %q", got, castJob)
	}
	narrator := voices.EngineVoiceID(voices.BuiltinEngine, "en-us")
	if status, _, b := c.do(http.MethodPut, "/api/audiobook/books/"+id+"/narrator", []byte(`{"voice_id":"`+narrator+`"}`)); status != http.StatusOK {
		t.Fatalf("narrator: %d %s", status, b)
	}
	renderJob := acceptedOnce(t, "simultaneous renders", c.postAtOnce(8, "/api/audiobook/books/"+id+"/render", `{}`))
	if got := c.book(id).RenderJob; got != renderJob {
		t.Fatalf("the book records render job %q, the accepted start %q", got, renderJob)
	}

	release()
	released = true
	for _, j := range append(busy, castJob, renderJob) {
		if v := c.waitJob(j); v.Status != jobs.StatusSucceeded {
			t.Fatalf("job %s: %+v", j, v)
		}
	}
	// Once the jobs ended, a start is accepted again.
	c.waitJob(c.startJob("/api/attribute-spans", `{"book_id":"`+id+`"}`))
}
