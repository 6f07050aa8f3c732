// Package goroutinepanic: a goroutine started by a test panics after other
// tests passed, killing the test binary; the tests after it never run.
package goroutinepanic

import (
	"testing"
	"time"
)

func TestBefore(t *testing.T) {}

func TestGoroutinePanics(t *testing.T) {
	go func() { panic("planted panic in a goroutine") }()
	time.Sleep(time.Minute)
}

func TestAfter(t *testing.T) {}
