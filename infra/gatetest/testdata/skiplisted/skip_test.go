// Package skiplisted: a skip that infra/gate.json allows once the test names
// TestEvalFixture in its evaluations entry (sample
// data absent). It skips always: the gate decides whether that is allowed.
package skiplisted

import "testing"

func TestPasses(t *testing.T) {}

func TestEvalFixture(t *testing.T) { t.Skip("LECTERN_SAMPLE_DATA is not set: sample magazines absent") }
