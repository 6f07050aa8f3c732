package main

import "time"

// slowBound bounds a wait for a process or background work (a server
// starting, an ingest settling): a failure bound for `make test` on a 2-core
// machine shared with other test runs and under -race, never the wait
// itself; a wait returns as soon as its state holds.
const slowBound = 3 * time.Minute
