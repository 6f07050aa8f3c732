// Fixture packages for infra/gatetest: each one passes or breaks go test in
// one way, and the gate (infra/gotest-summary.py) must judge it. A testdata
// folder with its own module, so the project's `go test ./...` never runs it.
module gatefixtures

go 1.24
