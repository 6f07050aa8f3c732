// Package skipunlisted: a skip that infra/gate.json does not allow.
package skipunlisted

import "testing"

func TestPasses(t *testing.T) {}

func TestSkipsUnlisted(t *testing.T) { t.Skip("planted skip that no allowlist entry covers") }
