package asl

import (
	"os"
	"testing"
)

// FuzzParse: any definition is parsed or refused with an error, never a
// panic. Seeds: the real ingest definition and testdata/fuzz.
func FuzzParse(f *testing.F) {
	if real, err := os.ReadFile("../../../statemachines/ingest.asl.json"); err == nil {
		f.Add(real)
	}
	f.Add([]byte(`{"StartAt":"A","States":{"A":{"Type":"Pass","End":true}}}`))
	f.Add([]byte(`{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Variable":"$.x","NumericEquals":1,"Next":"D"}],"Default":"D"},"D":{"Type":"Succeed"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Parse(data)
	})
}
