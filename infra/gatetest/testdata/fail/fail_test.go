// Package fail has one plain failing test beside a passing one.
package fail

import "testing"

func TestPasses(t *testing.T) {}

func TestFails(t *testing.T) { t.Error("planted failure") }
