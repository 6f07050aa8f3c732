package audiobook

import (
	"context"
	"errors"
	"testing"
)

// A render job that had every chunk spoken and got no further than the
// job before it (an assembly longer than a whole invocation) fails for
// good instead of handing the render on for ever.
func TestContinueRenderRefusesAJobWithoutProgress(t *testing.T) {
	s := &Service{}
	rec := renderRecord{Run: "r1", Reached: 0.8, Continued: 2}
	_, err := s.continueRender(context.Background(), nil, renderPayload{BookID: "b1", Run: "r1"}, rec, 3, 0.8, true)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a job stuck at %.0f%% after all was spoken: %v", 100*rec.Reached, err)
	}
}
