//go:build race

package app

// raceDetector: this test binary runs under -race, where ingest is about
// ten times slower.
const raceDetector = true
