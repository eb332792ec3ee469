# The two commands a new user needs are `make demo` (the whole pipeline,
# offline) and `make test` (every test, as CI runs it).
GO ?= go

.PHONY: all demo harness test bench fmt-check vet build clean FORCE

all: test

build:
	$(GO) build ./...

BIN := bin/harness

# The binary. The targets below run it directly, so that their output ends
# on the harness's own verdict and report paths.
$(BIN): FORCE
	@$(GO) build -o $(BIN) ./cmd/harness

# The whole pipeline on the built-in offline reference models: no key, no
# network: a short size ladder, relay and answer formats, then the gating
# run, whose verdict and report paths end it (scripts/demo says more; a
# test checks how it ends).
demo: $(BIN)
	@./scripts/demo $(BIN)

# What make demo and make harness leave behind: the binary, and the demo's
# runs and reports (about 50 MB; each demo replaces the last one's); and
# what the commands' -h examples write (.gitignore lists it). Runs and
# reports of other names are yours, and kept, as are the examples' copies
# for you to edit (my-corpus/, my-thresholds.yaml).
clean:
	rm -rf bin runs/demo runs/demo-* reports/demo.* reports/demo-* reports/.demo*.lock
	rm -rf 17.md answer.txt calibration.json expected.bend.json rescored size-ladder reports/trend.html

# The gating run against the configured frontier models through OpenRouter.
# Without OPENROUTER_API_KEY the harness exits 2 and points at `make demo`.
# make exits 0 on a passing verdict and 2 on anything else: GNU make exits 2
# whenever a recipe fails, so a failing verdict (the harness's exit 1) and a
# run that could not run or finish (its exit 2) read alike here. That is
# enough for a release gate; a scheduler that must tell them apart runs
# bin/harness run, or scripts/nightly run as the nightly job does, and
# reads the harness's own code (docs/running.md, "Nightly").
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
# Chromium). go test kills a package's tests after 10 minutes by default;
# cmd/harness's take minutes under -race, and a loaded CI machine must not
# fail them for being slow: the limit is a hang's, 30 minutes.
test: fmt-check vet
	$(GO) test -race -timeout 30m ./...
	$(GO) test -timeout 30m -run '^($(HEAVY_TESTS))$$' $(HEAVY_DIRS)
	@$(GO) test -count=1 -v -run '^TestBrowser$$' ./viewer | \
		awk '/^--- PASS: TestBrowser/ {print "browser test: ran"} /no Chromium found/ {sub(/^[ \t]*browser_test.go:[0-9]+: /, ""); print "browser test: SKIP: " $$0}'

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Speed and memory goals live in benchmarks, never in timed tests.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
