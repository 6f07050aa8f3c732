// Package nocompile does not type-check (it still parses, so gofmt is happy).
package nocompile

import "testing"

func TestNeverBuilt(t *testing.T) {
	var n int = "not a number"
	_ = n
}
