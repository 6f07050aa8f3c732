// Package hang: a test that never returns, ended by go test's -timeout.
package hang

import (
	"testing"
	"time"
)

func TestBefore(t *testing.T) {}

func TestHangs(t *testing.T) { time.Sleep(time.Hour) }
