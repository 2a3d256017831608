# bimri-hook: every target a newcomer or CI needs.
GO        ?= go
BIN       ?= bin/bimri-hook
VERSION   ?= $(shell cat VERSION 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
FUZZTIME  ?= 30s

.PHONY: all build test fuzz bench demo install cross clean

all: build

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/bimri-hook

# The one test command: README and .ci/run both call it.
test:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

clean:
	rm -rf bin
