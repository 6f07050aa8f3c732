// Package pass has only passing tests, one with subtests.
package pass

import "testing"

func TestOne(t *testing.T) {}

func TestTable(t *testing.T) {
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {})
	}
}
