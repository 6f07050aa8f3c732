// Package exitmidtest: a test calls os.Exit(0) in mid-run.
package exitmidtest

import (
	"os"
	"testing"
)

func TestBefore(t *testing.T) {}

func TestExits(t *testing.T) { os.Exit(0) }

func TestAfter(t *testing.T) {}
