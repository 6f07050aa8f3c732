package reviewapi

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/pipeline"
)

// TestRecognizeEnumIsThePipelinesEngines: the engines the API offers are
// exactly the ones the pipeline can run alone.
func TestRecognizeEnumIsThePipelinesEngines(t *testing.T) {
	f, ok := reflect.TypeFor[RecognizeIn]().FieldByName("Body")
	if !ok {
		t.Fatal("RecognizeIn has no Body")
	}
	engine, ok := f.Type.FieldByName("Engine")
	if !ok {
		t.Fatal("the body has no engine")
	}
	if got := strings.Split(engine.Tag.Get("enum"), ","); !slices.Equal(got, pipeline.Engines) {
		t.Errorf("enum %v, pipeline.Engines %v", got, pipeline.Engines)
	}
}
