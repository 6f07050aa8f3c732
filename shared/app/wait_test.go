package app

import (
	"testing"
	"time"
)

// slowBound bounds a wait for background work (a job, a render, an ingest,
// a stand-in engine being called). It only bounds a failure: `make test`
// runs on 2-core machines shared with other test runs and under -race, where
// work that takes a second alone can take a minute. A wait that succeeds
// returns as soon as its state holds.
const slowBound = 3 * time.Minute

// waitUntil polls cond until it holds, failing with what after slowBound: a
// wait for a state, never for a time.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(slowBound); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting until %s", slowBound, what)
		}
	}
}
