# The two commands a new user needs are `make demo` (the whole pipeline,
# offline) and `make test` (every test, as CI runs it).
GO ?= go

.PHONY: all demo harness test bench fmt-check vet build

all: test

build:
	$(GO) build ./...

# The whole pipeline on the built-in offline reference models: no key, no network.
demo:
	@echo "make demo: runs the full pipeline offline on offline/oracle, offline/identity and offline/noisy." >&2
	@echo "Not yet: the runner (issue 5) has not landed." >&2
	@exit 1

# The gating run against the configured frontier models through OpenRouter.
harness:
	@echo "make harness: runs 60 tasks x 3 frontier models through OpenRouter (needs OPENROUTER_API_KEY)." >&2
	@echo "Not yet: the runner (issue 5) has not landed; see 'make demo'." >&2
	@exit 1

# What CI runs (.ci/run): formatting, vet, and every test with the race detector.
test: fmt-check vet
	$(GO) test -race ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Speed and memory goals live in benchmarks, never in timed tests.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
