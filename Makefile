# Trestle. `make run` opens the window; `make test` runs every test.
GO      ?= go
BIN     := bin/trestle
DIR     ?=
# Packages without cgo or Fyne: tested with the race detector (and ui too,
# whose Fyne build with -race costs a few more minutes on a cold machine).
PURE    := ./app/... ./registry/... ./mcpbridge/... ./assets/... ./internal/...

.PHONY: all deps test-deps client-deps agent-deps build run test check bench fuzz clean

all: build

deps:
	@scripts/deps.sh

test-deps:
	@scripts/deps.sh --test

# client-deps: the MCP TypeScript SDK for the real-client tests, pinned by
# test/clients/package-lock.json; `npm ci` needs only the npm registry.
CLIENTS := test/clients
client-deps: test-deps $(CLIENTS)/node_modules/.installed

$(CLIENTS)/node_modules/.installed: $(CLIENTS)/package.json $(CLIENTS)/package-lock.json
	cd $(CLIENTS) && npm ci --no-audit --no-fund
	@touch $@

# agent-deps: ACP agents from npm that app/acp's TestNpmAgentsInitialize
# starts in the sandbox, pinned by test/agents/package-lock.json.
AGENTS := test/agents
agent-deps: test-deps $(AGENTS)/node_modules/.installed

$(AGENTS)/node_modules/.installed: $(AGENTS)/package.json $(AGENTS)/package-lock.json
	cd $(AGENTS) && npm ci --no-audit --no-fund --ignore-scripts
	@touch $@

build: deps
	$(GO) build -o $(BIN) ./cmd/trestle

run: build
	./$(BIN) $(DIR)

# check: formatting, tidy go.mod/go.sum, vet, and the layout rules (app builds without cgo and never imports Fyne).
check:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { gofmt -l .; echo "gofmt: the files above need gofmt -w" >&2; exit 1; }
	@$(GO) mod tidy -diff >/dev/null || { echo "go.mod/go.sum are not tidy: run go mod tidy (go mod tidy -diff shows what it changes)" >&2; exit 1; }
	$(GOENV_TEST) $(GO) vet ./...
	CGO_ENABLED=0 $(GO) build ./app/...
	@! $(GO) list -deps ./app/... | grep -q '^fyne.io/' || { echo "layout: app/ must not import Fyne" >&2; exit 1; }
	@! $(GO) list -deps ./mcpbridge/... ./registry/... | grep -q '^fyne.io/' || { echo "layout: mcpbridge/ and registry/ must not import Fyne" >&2; exit 1; }
	@! grep -rl --include='*.go' '"fyne.io/fyne/v2/app"' app ui mcpbridge registry assets | grep -q . || { echo "layout: only cmd/trestle may import fyne.io/fyne/v2/app" >&2; exit 1; }

# GOENV_TEST is how test runs the go command: as on a fresh machine, with
# the caller's Go env file set aside (GOENV=off) and GOFLAGS empty, so that
# no -buildvcs=false or -mod=mod there hides a failure. Only what makes the
# run faster or reach the module proxy is kept from it (the caches, GOPATH,
# the proxy settings), and GOTOOLCHAIN=local: the installed Go must satisfy
# go.mod's go line; it is never swapped for a downloaded toolchain. (Each
# test binary also sets HOME and the XDG folders aside: testfix.RunIsolated.)
GOENV_KEPT := GOCACHE GOMODCACHE GOPATH GOPROXY GOSUMDB GOPRIVATE GONOPROXY GONOSUMDB GOINSECURE
GOENV_TEST = GOENV=off GOFLAGS= GOTOOLCHAIN=local $(foreach v,$(GOENV_KEPT),$(v)='$(shell $(GO) env $(v))')

# -timeout: the end-to-end tests of cmd/trestle (a real window under Xvfb,
# real gopls on bbolt, native evaluator builds) run one after another in
# one test binary and together outlast go test's default of 10 minutes.
test: test-deps client-deps agent-deps check
	$(GOENV_TEST) $(GO) test -race -count=1 -timeout 30m $(PURE) ./ui/...
	$(GOENV_TEST) $(GO) test -count=1 -timeout 45m ./cmd/...
	$(MAKE) --no-print-directory package
	scripts/check-package.sh out/Trestle.tar.xz

# package: the Linux desktop bundle (binary, .desktop entry, icon and an
# installing Makefile: `make user-install` inside it) made by `fyne package`
# from FyneApp.toml and assets/icon.png.
FYNE_TOOL := fyne.io/tools/cmd/fyne@v1.7.4
# FyneApp.toml is put back afterwards: fyne package rewrites it (it counts
# builds up), which would leave the checkout dirty after every make test.
package: build
	@mkdir -p out && cp FyneApp.toml out/FyneApp.toml.keep
	$(GO) run $(FYNE_TOOL) package -os linux --exe $(BIN) --icon assets/icon.png --release; \
		status=$$?; mv out/FyneApp.toml.keep FyneApp.toml; exit $$status
	mv Trestle.tar.xz out/Trestle.tar.xz

# bench: every benchmark, one table with ratios to same-run baselines, and
# the table in docs/performance.md rewritten (scripts/bench; 2-5 minutes).
bench:
	@scripts/deps.sh --bench
	$(GO) run ./scripts/bench

# fuzz: the MCP message loop under random lines for a bounded time (`make
# test` runs the committed corpus in mcpbridge/testdata/fuzz). FUZZTIME=5m
# runs longer; a failing input is saved under testdata/fuzz for review.
FUZZTIME ?= 60s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzSessionLines -fuzztime $(FUZZTIME) ./mcpbridge

clean:
	rm -rf bin out
