# bimri-hook: every target a newcomer or CI needs. `make help` lists them.
GO       ?= go
# dist/, not bin/: bin/ is the plugin's folder on the agent's PATH.
BIN      ?= dist/bimri-hook
VERSION  := $(shell cat VERSION)
LDFLAGS  := -s -w -X main.version=$(VERSION)
# urfave/cli's man-page and markdown generators are never used; leaving
# them out shortens the start-up every hook run pays.
TAGS     := urfave_cli_no_docs
FUZZTIME ?= 30s
# make simulate SESSIONS=2000 SEED=2 lives another run than docs/reliability.md's.
SESSIONS ?= 1000
SEED     ?= 1
PREFIX   ?= $(shell $(GO) env GOPATH)

.PHONY: help build test demo simulate fuzz bench latency eval locomo install uninstall release plugin mcpb cross-check clean

help:
	@echo "make demo         live a few sessions in a temporary workspace and show what the model receives"
	@echo "make test         run every test, the slow ones too (end-to-end with the real Claude Code, crash and concurrency, 1,000 sessions)"
	@echo "make build        build $(BIN), with bimri-hook-cli, bimri-hook-browse and bimri-hook-mcp beside it"
	@echo "make install      install bimri-hook, bimri-hook-cli, bimri-hook-browse and bimri-hook-mcp into $(PREFIX)/bin"
	@echo "make uninstall    remove those four from $(PREFIX)/bin (run bimri-hook uninstall in each project first)"
	@echo "make simulate     live 1,000 sessions (seed 1; SESSIONS=, SEED= for others) and chart tokens per tier against the budgets"
	@echo "make fuzz         run every fuzz target for FUZZTIME (default $(FUZZTIME))"
	@echo "make bench        Go benchmarks and whole-process timings against cat"
	@echo "make latency      SessionStart (steady) and SessionEnd against a Go program that only prints a line, and the bar they must stay within"
	@echo "make eval         nine months of a project lived through the hooks, then questions in fresh sessions (docs/recall.md)"
	@echo "make locomo LOCOMO=/path/to/locomo10.zip   recall on the LoCoMo benchmark through the real binary, beside BM25 (docs/recall.md)"
	@echo "make release      the release: binaries for linux, darwin, windows x amd64, arm64, archives, checksums.txt, the Homebrew cask, in dist/"
	@echo "make plugin       the release and dist/plugin, the marketplace + plugin folder with the four programs of each of the six platforms"
	@echo "make mcpb         write dist/bimri-hook.mcpb, the MCP bundle Claude Desktop installs (bimri-hook-mcp for the six targets)"

# browse's terminal UI and the MCP server are programs of their own, so
# the hook binary never loads their libraries (a terminal library, the MCP
# SDK); bimri-hook browse and bimri-hook mcp run them from beside itself.
# The hook binary is built with hookonly: every command but the hooks is
# bimri-hook-cli, the same program with its command line
# (cmd/bimri-hook/commands_hookonly.go says why).
build:
	$(GO) build -trimpath -tags $(TAGS),hookonly -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/bimri-hook
	$(GO) build -trimpath -tags $(TAGS) -ldflags '$(LDFLAGS)' -o $(BIN)-cli ./cmd/bimri-hook
	$(GO) build -trimpath -ldflags '-s -w' -o $(BIN)-browse ./cmd/bimri-hook-browse
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)-mcp ./cmd/bimri-hook-mcp

# Tools of the developers' own with dependencies (gotestsum; goreleaser
# may join it) are pinned in tools/go.mod, a module apart: `go tool`
# builds them from it on first use, nothing is fetched @latest, and none
# of their dependencies reaches go.mod or the binary.
TOOL := $(GO) tool -modfile=tools/go.mod

# The one test command: the README and .ci/run both call it. It runs
# everything: gofmt, vet, the docs' links, and every test with the slow
# ones (BIMRI_SLOW=1: the real Claude Code, crash and concurrency, the
# 1,000-session simulation) and the bench tools' (-tags bench), printing
# each test as it ends. `go test ./...` is the quick loop without the
# slow ones. The e2e package installs Claude Code 2.1.337 with npm into
# a cache on first use.
test: cross-check
	@unformatted=$$("$$($(GO) env GOROOT)/bin/gofmt" -l .); if [ -n "$$unformatted" ]; then echo "gofmt -w these files:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet -tags bench ./...
	bash scripts/checkdocs.sh
	BIMRI_SLOW=1 $(TOOL) gotestsum --format testname --raw-command -- \
		$(GO) test -json -tags bench -count=1 -timeout 30m ./...

demo:
	bash scripts/demo.sh

# The long run docs/reliability.md quotes: deterministic for a seed. A
# developer's figures, so bench/lifesim, not a command of bimri-hook. The
# context names the command the agent runs, and its length moves what
# fits under the cap, so the run names $(BIN) as the agent would see it,
# as when the run lived in that binary.
simulate:
	$(GO) run -tags bench ./bench/lifesim -sessions $(SESSIONS) -seed $(SEED) -binary $(abspath $(BIN))

fuzz:
	FUZZTIME=$(FUZZTIME) bash scripts/fuzz.sh

# The recall evaluation docs/recall.md quotes: deterministic for a seed.
eval:
	$(GO) run -tags bench ./bench/recalleval -seed 1

# Recall on a public benchmark, LoCoMo (docs/recall.md): ten long
# conversations lived through the real binary, their questions asked as
# prompts, scored beside a plain BM25. The data set is not in the
# repository: LOCOMO is the path of the release's locomo10.zip (from
# github.com/snap-research/locomo), whose sha256 the harness checks.
# LOCOMO_FLAGS=-in-process asks recall directly, in seconds, for trying
# a change to the ranking (no binary, passes or view).
locomo:
	@if [ -z "$(LOCOMO)" ]; then echo "usage: make locomo LOCOMO=/path/to/locomo10.zip (data/locomo10.zip of github.com/snap-research/locomo)"; exit 2; fi
	$(GO) build -trimpath -tags $(TAGS) -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/bimri-hook
	@mkdir -p dist
	$(GO) run -tags bench ./bench/locomo -zip "$(LOCOMO)" -bin $(BIN) -out dist/locomo-questions.jsonl $(LOCOMO_FLAGS)

bench:
	bash scripts/bench.sh

# The latency bar every change is held to (docs/performance.md): one
# interleaved run of the go floor, a steady SessionStart and a SessionEnd
# on the full file; fails if a hook is over its multiple of the floor.
# Timings, so it is not part of make test: run it before and after a
# change that could cost start-up (a dependency, package-level work).
latency:
	BAR=1 bash scripts/bench.sh

# install is build into $(PREFIX)/bin: the same four programs, built alike.
install:
	@$(MAKE) --no-print-directory build BIN=$(PREFIX)/bin/bimri-hook
	@echo "installed bimri-hook, bimri-hook-cli, bimri-hook-browse and bimri-hook-mcp in $(PREFIX)/bin"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) echo "$(PREFIX)/bin is on PATH; next, in your project: bimri-hook install" ;; \
	*) echo "$(PREFIX)/bin is not on PATH: add it (export PATH=\"$(PREFIX)/bin:\$$PATH\" in your shell's profile), then in your project: bimri-hook install" ;; esac

# uninstall removes what install put in $(PREFIX)/bin, and nothing else:
# the wiring in each project's settings is bimri-hook uninstall's to undo.
uninstall:
	rm -f $(PREFIX)/bin/bimri-hook $(PREFIX)/bin/bimri-hook-cli $(PREFIX)/bin/bimri-hook-browse $(PREFIX)/bin/bimri-hook-mcp
	@echo "removed bimri-hook, bimri-hook-cli, bimri-hook-browse and bimri-hook-mcp from $(PREFIX)/bin"

# The same bytes from the same source on any machine (scripts/release:
# no VCS stamp, sorted archives with a fixed time; e2e's
# TestReleaseIsReproducible builds twice and compares).
release:
	$(GO) run ./scripts/release -version $(VERSION) -dist dist

plugin:
	$(GO) run ./scripts/release -version $(VERSION) -dist dist -plugin

# The MCP bundle for Claude Desktop: the release's bimri-hook-mcp for the
# six targets (make release builds them into dist/build), a manifest and
# the script that picks the binary (scripts/mcpb). e2e's TestMCPBundle
# packs the release it builds the same way, and validates it with the
# official mcpb CLI.
mcpb: release
	$(GO) run ./scripts/mcpb -version $(VERSION) -build dist/build -out dist/bimri-hook.mcpb

# What CI checks of the other platforms: the Windows build compiles.
cross-check:
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/bimri-hook
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -tags hookonly -o /dev/null ./cmd/bimri-hook
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/bimri-hook-mcp

clean:
	rm -rf dist bench-results.txt
