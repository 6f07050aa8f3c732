#!/usr/bin/env bash
# Runs every test suite against real parts, started here and stopped on exit.
# Called by `make test` after the tools are installed and the binary is built.
set -euo pipefail
cd "$(dirname "$0")/.."
source infra/common.sh

stop_all() {
  # A sam build still running in the background (a failed suite before its wait).
  if [ -n "${sam_pid:-}" ]; then pkill -TERM -P "$sam_pid" 2>/dev/null || true; kill "$sam_pid" 2>/dev/null || true; fi
  bash infra/elasticmq.sh stop || true
  bash infra/localstack.sh stop || true
  bash infra/minio.sh stop || true
  bash infra/dynamodb-local.sh stop || true
}
trap stop_all EXIT

# Each section header says how long the run has taken so far, so a slow
# suite shows in the log (CI must stay under 10 minutes warm).
started=$(date +%s)
section() { printf '\n=== %s (at %d s) ===\n' "$*" "$(( $(date +%s) - started ))"; }

# The gate that judges the Go tests is tested first: a gate that passes a
# broken run would make everything after it meaningless.
section "Go test gate (infra/gatetest: the gate on broken fixture packages)"
python3 -B -m unittest infra/gatetest/test_gate.py

section "starting test parts: LocalStack (in the background), DynamoDB Local, MinIO, ElasticMQ"
# LocalStack (a second Step Functions for the ingest definition) takes
# seconds to start: it starts first and is waited for last. A cold machine
# installs it (a venv of localstack-core from PyPI under $LECTERN_TOOLS).
bash infra/localstack.sh start
eval "$(bash infra/dynamodb-local.sh start)"
eval "$(bash infra/minio.sh start)"
eval "$(bash infra/elasticmq.sh start)"
eval "$(bash infra/localstack.sh wait)"
echo "DynamoDB Local $LECTERN_TEST_DYNAMODB_ENDPOINT, MinIO $LECTERN_TEST_S3_ENDPOINT, ElasticMQ $LECTERN_TEST_SQS_ENDPOINT, LocalStack $LECTERN_TEST_LOCALSTACK_ENDPOINT"

# The team's sample PDFs sit beside the checkout (../shared/data); evaluation
# tests (TestEval*) read them from here and skip only when they are absent.
if [ -z "${LECTERN_SAMPLE_DATA:-}" ] && [ -d ../shared/data ]; then
  export LECTERN_SAMPLE_DATA="$(cd ../shared/data && pwd)"
fi
echo "sample data: ${LECTERN_SAMPLE_DATA:-absent (evaluation tests will skip)}"

section "Go tests (go test -race; the pipeline-heavy packages and the evaluations without it)"
# go test's exit code is kept; the gate (infra/gotest-summary.py, infra/gate.json)
# also fails runs that it exits 0 or 1 for without a failed test to show: panics,
# timeouts, os.Exit, unlisted skips, missing contract suites, too few tests.
# Three passes run at once, each judged by the gate (the ASL package runs as a
# fourth, beside them, see below):
# - the evaluations (TestEval*, TestScanTextLayer: real PDFs and scans through
#   the whole pipeline), without -race;
# - shared/app, shared/pipeline and cmd/lectern, whose tests ingest real PDFs:
#   without -race, where they take 20 s (pipeline), 16 s (lectern) and about a
#   minute (app) instead of 344, 123 and 357 s, the run's critical path; then
#   their tests of concurrent work (the local runner's page Map, jobs beside
#   edits, the worker, a killed upload, racing executions: $race_heavy) again
#   under -race;
# - every other package under -race (the store, blob, jobs and voices ports,
#   the ASL runner and LocalStack's Step Functions, the HTTP layer).
evals='^(TestEval|TestScanTextLayer)'
heavy=(github.com/lectern/lectern/shared/app github.com/lectern/lectern/shared/pipeline github.com/lectern/lectern/cmd/lectern)
race_heavy='^(TestMagazineIngestEndToEnd|TestListenWhileRendering|TestWorkerRunsEveryRegisteredKind|TestRefineFiguresKeepsEditsAndHandPlacedBoxes|TestEveryPageEditHonoursIfMatch|TestKilledUploadLeavesNothingStuck|TestServeAnswersThenShutsDownGracefully|TestPrepareTwiceOnTheSameUpload|TestPrepareRaceHasOneWinner|TestDuplicateExecutionEndsAlreadyStarted|TestIngestRunsTheDefinitionOverTheSteps)$'
eval_exit=0
# shared/pdf and shared/pipeline hold evaluations too: every sample page cut
# out on its own renders and ingests as in the whole file. shared/audiobook/book
# and spans read the PDNC novels (books/).
go test -count=1 -timeout 30m -run "$evals" -json ./shared/app ./shared/pdf ./shared/pipeline \
  ./shared/audiobook/book ./shared/audiobook/spans ./shared/audiobook/cast > "$LECTERN_STATE/go-eval.json" &
eval_pid=$!
go_exit=0
{ rc=0
  go test -count=1 -timeout 30m -skip "$evals" -json "${heavy[@]}" > "$LECTERN_STATE/go-test-heavy.json" || rc=$?
  go test -count=1 -race -timeout 30m -run "$race_heavy" -json "${heavy[@]}" > "$LECTERN_STATE/go-test-heavy-race.json" || rc=$?
  # A renamed test would leave the -race selection silently smaller.
  python3 - "$race_heavy" "$LECTERN_STATE/go-test-heavy-race.json" <<'PY' || rc=1
import json, sys
want = set(sys.argv[1].strip("^$()").split("|"))
ran = {e["Test"] for e in map(json.loads, open(sys.argv[2])) if e.get("Action") == "run" and "/" not in e.get("Test", "/")}
if want - ran:
    sys.exit(f"the -race selection names tests that did not run: {sorted(want - ran)}")
PY
  exit $rc
} &
heavy_pid=$!
# The ASL package starts at once, on its own: its LocalStack contract (500
# failing pages through Step Functions) waits on LocalStack for minutes with
# little CPU, and in package order it started last, so the whole Go phase
# waited for it.
asl=github.com/lectern/lectern/shared/pipeline/asl
go test -count=1 -race -timeout 30m -skip "$evals" -json "$asl" > "$LECTERN_STATE/go-test-asl.json" &
asl_pid=$!
go test -count=1 -race -timeout 30m -skip "$evals" -json $(go list ./... | grep -vxF "$(printf '%s\n' "${heavy[@]}" "$asl")") \
  > "$LECTERN_STATE/go-test-rest.json" || go_exit=$?
wait "$heavy_pid" || go_exit=$?
wait "$asl_pid" || go_exit=$?
cat "$LECTERN_STATE/go-test-rest.json" "$LECTERN_STATE/go-test-asl.json" "$LECTERN_STATE/go-test-heavy.json" "$LECTERN_STATE/go-test-heavy-race.json" > "$LECTERN_STATE/go-test.json"
wait "$eval_pid" || eval_exit=$?
gate_exit=0
python3 infra/gotest-summary.py --gate infra/gate.json --min-tests 1250 --go-exit "$go_exit" \
  "$LECTERN_STATE/go-test.json" || gate_exit=$?
eval_gate=0
python3 infra/gotest-summary.py --gate infra/gate.json --subset --min-tests 5 --go-exit "$eval_exit" \
  "$LECTERN_STATE/go-eval.json" || eval_gate=$?
if [ "$go_exit" -ne 0 ] || [ "$gate_exit" -ne 0 ] || [ "$eval_exit" -ne 0 ] || [ "$eval_gate" -ne 0 ]; then
  echo "Go tests FAILED: go test exited $go_exit, the gate exited $gate_exit; evaluations: go test exited $eval_exit, the gate exited $eval_gate (runs in $LECTERN_STATE/go-test.json and go-eval.json)" >&2
  exit 1
fi

section "Go fuzzing: every parser of outside input, 4 s each (seed corpus in testdata/fuzz)"
# The seeds run in the Go tests above too; here each target also mutates them
# for a bounded time. A failing input is written to its testdata/fuzz folder.
for target in \
  ./shared/pdf:FuzzCheckPage ./shared/pdf:FuzzInlineImages \
  ./shared/magazine:FuzzParseVisionRegions ./shared/magazine:FuzzRegionEdits \
  ./shared/pipeline/asl:FuzzParse ./shared/settings:FuzzSettingsBody; do
  fuzz_log="$LECTERN_STATE/fuzz-${target#*:}.log"
  # Go 1.26's fuzzing coordinator can report its own -fuzztime deadline as
  # the target failing (golang/go#75804, fixed in Go 1.27; each of CI's last
  # two runs hit it on one of these six targets): a bare "context deadline
  # exceeded" with no failing input written runs again, up to three times in
  # all. A real
  # finding writes its input to testdata/fuzz and fails at once.
  for attempt in 1 2 3; do
    if go test -run '^$' -fuzz "^${target#*:}\$" -fuzztime 4s "${target%%:*}" 2>&1 | tee "$fuzz_log"; then
      break
    fi
    if ! grep -q 'context deadline exceeded' "$fuzz_log" || grep -q 'Failing input written' "$fuzz_log" || [ "$attempt" = 3 ]; then
      exit 1
    fi
    echo "fuzz: ${target#*:} stopped on the coordinator's deadline with nothing found (golang/go#75804); running it again"
  done
done

section "front end: svelte-check and unit tests (vitest)"
(cd frontend && npm run --silent check && npm test --silent)

# sam build runs beside the browser and schema tests, which wait on Chromium
# and the server more than they compute; its checks come in "infra: sam build".
# sam's cache keys a function on its CodeUri folder only (functions/<name>),
# so a change under shared/ would reuse a stale binary: the cache folder is
# keyed on every Go source and build script as well, and older ones go.
source_key=$( (git ls-files -co --exclude-standard -- '*.go' go.mod go.sum 'functions/*' | sort | xargs cat 2>/dev/null || true) | sha1sum | cut -c1-16)
find "$LECTERN_TOOLS/sam-cache-by-source" -mindepth 1 -maxdepth 1 ! -name "$source_key" -exec rm -rf {} + 2>/dev/null || true
CGO_ENABLED=0 GOFLAGS="${LAMBDA_GOFLAGS:?the Makefile sets it}" "$VENV/bin/sam" build --parallel --build-dir "$LECTERN_STATE/sam-build" \
  --cache-dir "$LECTERN_TOOLS/sam-cache-by-source/$source_key" --cached > "$LECTERN_STATE/sam-build.log" 2>&1 &
sam_pid=$!

section "browser end-to-end (playwright-core + /usr/bin/chromium)"
(cd frontend && LECTERN_BIN="$PWD/../bin/lectern" npm run --silent e2e)

section "API schema testing: schemathesis against a running server with a sample issue (at most 2 min)"
LECTERN_BIN="$PWD/bin/lectern" VENV="$VENV" bash infra/schemathesis.sh 40

section "MCP: lectern_mcp against the conformance suite (streamable HTTP) and the Inspector CLI (stdio, HTTP)"
# Node 22 and the npm tools are cached under $LECTERN_TOOLS (make test-tools
# installs them); the suite's fixed test_* scenarios are the baseline.
LECTERN_BIN="$PWD/bin/lectern" bash infra/mcp/test.sh

section "infra: cfn-lint template.yaml"
"$VENV/bin/cfn-lint" template.yaml && echo "cfn-lint: no errors"

section "infra: sam build"
sam_exit=0
wait "$sam_pid" || sam_exit=$?
tail -n 5 "$LECTERN_STATE/sam-build.log"
[ "$sam_exit" -eq 0 ] || { echo "sam build failed (exit $sam_exit): $LECTERN_STATE/sam-build.log"; exit 1; }
for fn in $(python3 -c 'import re,sys; print(" ".join(re.findall(r"^  (\w+Function):\n    Type: AWS::Serverless::Function", open("template.yaml").read(), re.M)))'); do
  test -x "$LECTERN_STATE/sam-build/$fn/bootstrap" || { echo "sam build produced no bootstrap for $fn"; exit 1; }
  # MuPDF steps, the Voices function and the worker (a Makefile beside them)
  # are static x86_64; the rest arm64.
  dir=$(python3 -c 'import re,sys; m=re.search(r"^  "+sys.argv[1]+r":\n(?:    .*\n|\n)*?      CodeUri: (\S+)", open("template.yaml").read(), re.M); print(m.group(1))' "$fn")
  if [ -f "$dir/Makefile" ]; then
    file "$LECTERN_STATE/sam-build/$fn/bootstrap" | grep -q "x86-64.*statically linked" || { echo "$fn is not a static x86_64 binary"; exit 1; }
  else
    file "$LECTERN_STATE/sam-build/$fn/bootstrap" | grep -q "ARM aarch64" || { echo "$fn is not arm64"; exit 1; }
  fi
done
echo "sam build: every function has its bootstrap (MuPDF steps, Voices and the worker static x86_64, the rest arm64)"
env -i "$LECTERN_STATE/sam-build/RecognizeFunction/tesseract/run" --list-langs 2>&1 | grep -qx eng \
  || { echo "RecognizeFunction's Tesseract bundle does not run on its own"; exit 1; }
echo "sam build: RecognizeFunction carries a Tesseract that runs with an empty environment"
# The worker's speech bundle, as the renderer uses it: espeak-ng speaks a
# sentence, ffmpeg measures loudness and encodes it as M4B (AAC, ipod) and MP3.
speech="$LECTERN_STATE/sam-build/WorkerFunction/speech" out="$LECTERN_STATE/speech-bundle"
rm -rf "$out" && mkdir -p "$out"
env -i "$speech/espeak-ng/run" -v en-us -w "$out/say.wav" "The worker speaks and encodes on its own." \
  || { echo "WorkerFunction's espeak-ng bundle does not run on its own"; exit 1; }
env -i "$speech/ffmpeg" -nostdin -hide_banner -loglevel error -i "$out/say.wav" \
  -af ebur128 -c:a aac -b:a 64k -movflags +faststart -f ipod "$out/say.m4b" \
  -af volume=1.5dB -c:a libmp3lame -b:a 64k -f mp3 "$out/say.mp3" \
  || { echo "WorkerFunction's ffmpeg does not run on its own"; exit 1; }
for f in say.wav say.m4b say.mp3; do
  test -s "$out/$f" || { echo "WorkerFunction's speech bundle wrote no $f"; exit 1; }
  if command -v ffprobe >/dev/null; then
    d=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$out/$f")
    awk -v d="$d" 'BEGIN{exit !(d > 0)}' || { echo "$f has no duration ($d)"; exit 1; }
  fi
done
echo "sam build: WorkerFunction carries an espeak-ng and an ffmpeg that run with an empty environment (wav, m4b, mp3 of $(du -sh "$speech" | cut -f1))"
# The Voices function's espeak-ng, as previews and offline design use it.
espeak="$LECTERN_STATE/sam-build/VoicesFunction/espeak-ng"
env -i "$espeak/run" -v en-us -w "$out/preview.wav" "The voice library previews on its own." \
  || { echo "VoicesFunction's espeak-ng bundle does not run on its own"; exit 1; }
head -c 4 "$out/preview.wav" | grep -q RIFF || { echo "VoicesFunction's espeak-ng wrote no WAV"; exit 1; }
echo "sam build: VoicesFunction carries an espeak-ng that runs with an empty environment (wav of $(du -sh "$espeak" | cut -f1))"

section "infra: the MuPDF functions run a page with an empty environment"
# Prepare, Render, Recognize and Review as sam built them (static x86_64),
# each started through a local Lambda Runtime API with only its stores'
# addresses (DynamoDB Local, MinIO): the page's render, its text-layer words
# and Tesseract's reading of the render must be stored. Finalize (arm64 in
# the stack) is built for this machine to finish the issue for Review.
CGO_ENABLED=0 GOFLAGS="$LAMBDA_GOFLAGS" go build -o "$LECTERN_STATE/finalize-here" ./functions/finalize
"$VENV/bin/python" infra/run-bootstraps.py "$LECTERN_STATE/sam-build" "$LECTERN_STATE/finalize-here"

section "infra: function sizes and least privilege (infra/lambdacheck)"
# Each function's AWS calls, read from its built binary, against its
# Policies in template.yaml (exactly those, nothing more), and the 15 MB
# budget of API and step functions.
go run ./infra/lambdacheck -build "$LECTERN_STATE/sam-build"

section "infra: asl-validator"
shopt -s nullglob
asl=(statemachines/*.asl.json)
if [ ${#asl[@]} -eq 0 ]; then
  echo "no state machine definitions yet (statemachines/ is empty)"
else
  for f in "${asl[@]}"; do "$ASL_VALIDATOR" --json-path "$f"; done
fi

section "all suites passed in $(( $(date +%s) - started )) s"
