package mcpserver

import (
	"time"
)

// when is a timestamp in readable form.
func when(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format("2 Jan 2006 15:04 UTC")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func orderWord(hand bool) string {
	if hand {
		return "set by hand"
	}
	return "automatic"
}

// at is a box coordinate, 0 where the box is short.
func at(box []float64, i int) float64 {
	if i < len(box) {
		return box[i]
	}
	return 0
}
