# The two commands a new user needs are `make demo` (the whole pipeline,
# offline) and `make test` (every test, as CI runs it).
GO ?= go

.PHONY: all demo harness test bench fmt-check vet build clean FORCE

all: test

build:
	$(GO) build ./...

BIN := bin/harness
DEMO_MODELS := offline/oracle,offline/identity,offline/noisy

# The binary; the targets below run it directly so that its exit code
# (0 pass, 1 fail, 2 could not run) reaches make unchanged.
$(BIN): FORCE
	@$(GO) build -o $(BIN) ./cmd/harness

# The whole pipeline on the built-in offline reference models: no key, no
# network. First a short size ladder, a short relay and the answer formats
# on two rungs (informational suites: their tables only); then the gating
# run, last, so that the demo ends on its verdict and its report paths
# (issue 34: it ended 100 lines later, on the formats). That verdict is
# "fail" by design (offline/identity never edits and answers "unknown"),
# so exit code 1 counts as success here; 2 does not.
demo: $(BIN)
	@out=$$(mktemp); $(BIN) run --suite size --rungs 8k,32k,128k --models offline/oracle,offline/noisy --judges offline/judge \
		--no-preflight --progress none --summary --run-id demo-size-$$(date -u +%Y%m%dT%H%M%SZ) > $$out; code=$$?; \
	sed -n '/^## Size ladder/,/^## Drift/{/^## Drift/!p;};/^HTML report: /p' $$out; rm -f $$out; \
	if [ $$code -gt 1 ]; then exit $$code; fi
	@out=$$(mktemp); $(BIN) run --suite relay --steps 4 --models offline/oracle,offline/noisy --judges offline/judge \
		--no-preflight --progress none --summary --run-id demo-relay-$$(date -u +%Y%m%dT%H%M%SZ) > $$out; code=$$?; \
	sed -n '/^## Relay/,/^## Drift/{/^## Drift/!p;};/^HTML report: /p' $$out; rm -f $$out; \
	if [ $$code -gt 1 ]; then exit $$code; fi
	@out=$$(mktemp); $(BIN) run --suite size --rungs 8k,512k --formats document,json-patch,bend-ops --models offline/oracle,offline/noisy --judges offline/judge \
		--no-preflight --progress none --summary --run-id demo-formats-$$(date -u +%Y%m%dT%H%M%SZ) > $$out; code=$$?; \
	sed -n '/^## Answer formats/,/^## Drift/{/^## Drift/!p;};/^HTML report: /p' $$out; rm -f $$out; \
	if [ $$code -gt 1 ]; then exit $$code; fi
	@echo "demo: the gating run; its verdict is fail by design (offline/identity is built to fail), and make demo exits 0 on it"
	@$(BIN) run --models $(DEMO_MODELS) --judges offline/judge --no-preflight --summary --run-id demo-$$(date -u +%Y%m%dT%H%M%SZ); \
	code=$$?; if [ $$code -gt 1 ]; then exit $$code; fi

# What make demo and make harness leave behind: the binary, and the demo's
# runs and reports (about 50 MB a demo). Runs and reports of other names
# are yours, and kept.
clean:
	rm -rf bin runs/demo-* reports/demo-*

# The gating run against the configured frontier models through OpenRouter.
# Without OPENROUTER_API_KEY it exits 2 and points at `make demo`.
harness: $(BIN)
	@$(BIN) run

FORCE:

# The tests that move megabytes live in files named heavy_test.go, tagged
# !race: they test sizes and limits, and took seconds to 40 s each under the
# race detector. HEAVY_TESTS and HEAVY_DIRS are read from those files, so a
# test added to one runs without a change here.
HEAVY_FILES := $(shell find . -name heavy_test.go -not -path './.git/*' | sort)
HEAVY_DIRS := $(sort $(dir $(HEAVY_FILES)))
HEAVY_TESTS := $(shell sed -n 's/^func \(Test[A-Za-z0-9_]*\)(t \*testing\.T).*/\1/p' $(HEAVY_FILES) | paste -sd'|' -)

# What CI runs (.ci/run): formatting, vet, and every test with the race
# detector, then the heavy tests without it. go test shows a skip only with
# -v, so the last line says whether the viewer's browser test ran (it needs
# Chromium).
test: fmt-check vet
	$(GO) test -race ./...
	$(GO) test -run '^($(HEAVY_TESTS))$$' $(HEAVY_DIRS)
	@$(GO) test -count=1 -v -run '^TestBrowser$$' ./render | \
		awk '/^--- PASS: TestBrowser/ {print "browser test: ran"} /no Chromium found/ {sub(/^[ \t]*browser_test.go:[0-9]+: /, ""); print "browser test: SKIP: " $$0}'

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Speed and memory goals live in benchmarks, never in timed tests.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
