# multisell: build, test and run the local stack. `make help` lists the targets.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

GO ?= go
PORT ?= 3000
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
CFN_LINT_VERSION := 1.51.0
REDOCLY := emulators/node_modules/.bin/redocly
# The module of the generated-client test: it pins oapi-codegen and its runtime (docs/clients.md).
GOCLIENT := pkg/conformance/testdata/goclient
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Every folder under functions/ with a main.go is one Lambda function.
FUNCTIONS := $(patsubst functions/%/main.go,%,$(wildcard functions/*/main.go))
# Lambda: provided.al2023 on arm64, a static binary named bootstrap, without net/http's HTTP/2
# (nethttpomithttp2: the AWS APIs, the channels and the webhook receivers are called over HTTP/1.1),
# and without inlining in the AWS SDK's, multisell's own, net's and TLS's packages (-l: code that
# waits on the network, about 0.45 MB smaller a binary; the rest of the standard library keeps it;
# docs/decisions.md, "Function binaries").
LAMBDA_ENV := GOOS=linux GOARCH=arm64 CGO_ENABLED=0
LAMBDA_FLAGS := -tags lambda.norpc,nethttpomithttp2 -trimpath -ldflags='-s -w' -gcflags='github.com/aws/...=-l' -gcflags='github.com/multisell/...=-l' -gcflags='net/...=-l' -gcflags='crypto/tls=-l' -gcflags='crypto/x509=-l'
# A function's binary stays under this many bytes (docs/decisions.md, "Function binaries"): make build
# and sam build fail past it.
BINARY_BUDGET := 8000000
GO_FILES = $(shell find . -name '*.go' -not -path './emulators/*' -not -path './.local/*' -not -path './.aws-sam/*')

.PHONY: help deps build test ci-lint test-race test-faults unit lint fmt-check vet staticcheck staticcheck-race cfn-lint openapi-lint docs run bench clean

help: ## list the targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

# ---------------------------------------------------------------- dependencies
deps: emulators/node_modules/.installed ## install what the local stack and the tests need
	@command -v java >/dev/null || { echo "== installing Java (DynamoDB Local)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless >/dev/null; }
	@command -v sqlite3 >/dev/null || { echo "== installing sqlite3 (indexes Dynoxide's stream records)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq --no-install-recommends sqlite3 >/dev/null; }
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
		echo "== installing Chromium (renders the offline /docs page in a test)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq --no-install-recommends chromium >/dev/null; }
	@GOFLAGS=-mod=mod GOPROXY=off $(GO) mod download 2>/dev/null || { \
		echo "== go mod download (a fresh clone downloads the Go modules first)"; $(GO) mod download; }
	@cd $(GOCLIENT) && { GOFLAGS=-mod=mod GOPROXY=off $(GO) mod download 2>/dev/null || { \
		echo "== go mod download (the generated client's test: oapi-codegen and its runtime)"; $(GO) mod download; }; }

# npm ci when node_modules is missing or older than the manifest or the lockfile.
emulators/node_modules/.installed: emulators/package.json emulators/package-lock.json
	@command -v npm >/dev/null || { echo "== installing Node.js"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null; }
	@echo "== npm ci (emulators)"
	@cd emulators && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# ---------------------------------------------------------------- build
build: ## build every function into bin/<name>/bootstrap (linux/arm64)
	@for f in $(FUNCTIONS); do \
		echo "== build $$f"; \
		$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o bin/$$f/bootstrap ./functions/$$f || exit 1; \
		$(call within-budget,bin/$$f/bootstrap) || exit 1; \
	done

# within-budget fails when the binary $(1) is BINARY_BUDGET bytes or more.
within-budget = size=$$(wc -c < "$(1)"); [ "$$size" -lt $(BINARY_BUDGET) ] || \
	{ echo "$(1): $$size bytes, over the budget of $(BINARY_BUDGET) (docs/decisions.md, Function binaries)" >&2; exit 1; }

# `sam build` (BuildMethod: makefile) runs build-<LogicalId> with ARTIFACTS_DIR set. The
# folder is the logical id without "Function", in kebab case: WarehousesListFunction ->
# functions/warehouses-list (pkg/local/template's tests hold the template to that convention).
build-%:
	@folder=$$(echo '$*' | sed -E 's/Function$$//; s/([a-z0-9])([A-Z])/\1-\2/g' | tr 'A-Z' 'a-z'); \
	test -f "functions/$$folder/main.go" || { echo "build-$*: no functions/$$folder/main.go" >&2; exit 1; }; \
	test -n "$(ARTIFACTS_DIR)" || { echo "build-$*: ARTIFACTS_DIR is not set (sam build sets it)" >&2; exit 1; }; \
	$(LAMBDA_ENV) $(GO) build $(LAMBDA_FLAGS) -o "$(ARTIFACTS_DIR)/bootstrap" "./functions/$$folder" && \
	$(call within-budget,$(ARTIFACTS_DIR)/bootstrap)

# ---------------------------------------------------------------- checks
fmt-check:
	@echo "== gofmt"
	@out=$$(gofmt -l $(GO_FILES)); if [ -n "$$out" ]; then echo "not gofmt-ed:"; echo "$$out"; exit 1; fi

vet:
	@echo "== go vet"
	@$(GO) vet ./...

staticcheck:
	@echo "== staticcheck"
	@$(GO) run $(STATICCHECK) ./...

# cfn-lint: template.yaml, SAM transform included; the checks it skips are listed, with
# their reasons, in .cfnlintrc.yaml (none today). Installed with pip (pinned) when missing.
cfn-lint:
	@echo "== cfn-lint"
	@command -v cfn-lint >/dev/null || { echo "== installing cfn-lint $(CFN_LINT_VERSION) (pip)"; \
		python3 -m pip install --quiet cfn-lint==$(CFN_LINT_VERSION); }
	@cfn-lint template.yaml

# The OpenAPI document under Redocly's recommended rules (redocly.yaml), with the Redocly
# CLI pinned in emulators/package.json; no telemetry, no update notice.
openapi-lint: emulators/node_modules/.installed
	@echo "== redocly lint"
	@REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true $(REDOCLY) lint --format=stylish docs/openapi.yaml

lint: fmt-check vet staticcheck cfn-lint openapi-lint ## gofmt, go vet, staticcheck, cfn-lint and the OpenAPI linter

# The API reference page: docs/openapi.yaml and redoc's standalone bundle (pinned in
# emulators/package.json) inlined into one self-contained HTML file that loads nothing from
# the network, to host anywhere (make run serves the same page on /docs, naming itself as the
# server). DOCS_SERVER is the page's servers entry (default: the document's).
DOCS_OUT ?= bin/docs/index.html
DOCS_SERVER ?=

docs: emulators/node_modules/.installed ## build the API reference page into bin/docs/index.html (env DOCS_OUT, DOCS_SERVER) for hosting
	@$(GO) run ./cmd/multisell docs --out '$(DOCS_OUT)' --server '$(DOCS_SERVER)'
	@echo "== the API reference page: $(DOCS_OUT)"

# make test is CI (.ci/run): four phases, each announced by "== <phase>" and closed by
# "== <phase>: <N>s" (.ci/phase), then the total. The build is compiled once, with the race
# detector: staticcheck loads it (GOFLAGS=-race) in the lint phase, go test reuses it and
# runs go vet's full suite on it (-vet=all) instead of a separate go vet ./..., which would
# compile everything once more without -race (docs/local-stack.md, "CI").
test: ## CI: deps, lint, every test with the race detector, then the fault tests; each phase timed
	@start=$$SECONDS; trap 'echo "== total: $$((SECONDS - start))s"' EXIT; \
	.ci/phase deps $(MAKE) deps; \
	.ci/phase lint $(MAKE) ci-lint; \
	.ci/phase "go test" $(MAKE) test-race; \
	.ci/phase "fault tests" $(MAKE) test-faults

# CI's lint: make lint without its go vet (go test -vet=all runs it) and with staticcheck
# on the race build that go test then reuses.
ci-lint: fmt-check staticcheck-race cfn-lint openapi-lint

staticcheck-race:
	@echo "== staticcheck (on the race build)"
	@GOBIN=$(CURDIR)/bin $(GO) install $(STATICCHECK)
	@GOFLAGS="$$($(GO) env GOFLAGS) -race" bin/staticcheck ./...

# Every package but the fault tests, with the race detector and go vet's full suite; each
# package's result is printed as soon as it finishes (.ci/testlines.go), not held behind
# the slower packages listed before it.
test-race:
	@$(GO) test -race -vet=all -json -timeout 15m $$($(GO) list ./... | grep -v '/pkg/local/faults$$') | $(GO) run .ci/testlines.go

# The fault tests (pkg/local/faults: SIGKILL and SIGSTOP of the local stack under load) run
# after the rest, alone, with their figures printed (about 4 minutes).
FAULTS := ./pkg/local/faults

test-faults:
	@$(GO) test -race -timeout 10m -v $(FAULTS) | grep -vE '^(\{|time=)'

# The fast loop: go test -short, in which pkg/testenv's Get (and every test that starts an
# emulator or a process itself) skips, so no emulator starts (docs/local-stack.md).
unit: ## the tests that need no emulator (go test -short): the fast loop, under 30 s
	@$(GO) test -short -timeout 5m ./...

bench: deps ## per endpoint: DynamoDB calls, capacity units and time of one request; per function: binary size and init time
	@mkdir -p .local
	@ADJUST_LOAD=$(ADJUST_LOAD) IMPORT_PRODUCTS=$(IMPORT_PRODUCTS) $(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) -timeout 60m ./... | tee .local/bench.txt | awk -f .ci/benchtable.awk

BENCHTIME ?= 20x
# How long BenchmarkAdjustThroughput loads the adjustments queue (docs/scale.md); 5 s without it.
ADJUST_LOAD ?= 60s
# How many products BenchmarkProductImport seeds (docs/scale.md); 500 without it.
IMPORT_PRODUCTS ?= 10000

# ---------------------------------------------------------------- local stack
run: deps ## serve the API on http://127.0.0.1:3000/v1 and its reference on /docs (env PORT, LOG=stdout; data persists in .local/)
	@if [ -e bin/multisell ]; then echo "== compiling bin/multisell"; \
	else echo "== compiling bin/multisell and the functions it serves (first run: about 2 minutes, then seconds)"; fi
	@$(GO) build -o bin/multisell ./cmd/multisell
	@PORT=$(PORT) exec bin/multisell serve

clean: ## remove build outputs (not .local/, the local data)
	rm -rf bin .aws-sam
