// Package asl runs an Amazon States Language state machine in-process, so the
// local binary walks the very statemachines/ingest.asl.json that Step
// Functions runs in AWS. It owns the interpretation of that file: paths and
// payload templates, Task/Map/Choice/Pass/Succeed/Fail, Retry with backoff
// and Catch, with each Task's Resource resolved to a Go Handler.
//
// The runner implements a deliberate subset of the language. Parse refuses
// anything outside it (other state types, unknown fields, intrinsic
// functions, JSONata, distributed Map, paths beyond plain names and [n],
// context object fields other than Execution.Input/Name/Id, State.Name and
// Map.Item) instead of ignoring it, naming what it refused, so a definition
// never behaves differently locally without anyone noticing. The fixtures in
// testdata/spec hold the specification's own examples with what the runner
// and asl-validator each make of them.
//
// Error names follow the AWS Lambda Go runtime: the outermost error's type
// name, pointer or not, so a handler returning *TransientError is retried by
// `"ErrorEquals": ["TransientError"]` in both modes, and one wrapped by
// fmt.Errorf is "wrapError" in both.
package asl
