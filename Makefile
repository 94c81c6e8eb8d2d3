# cairn: build, test, demo. `make test` is what CI runs.
GO      ?= go
BIN     ?= bin/cairn
GOFILES  = $(shell find . -name '*.go' -not -path './.git/*')

.PHONY: all build install test fmt-check vet race demo bench clean tools

all: build

build:
	$(GO) build -o $(BIN) ./cmd/cairn

install:
	$(GO) install ./cmd/cairn

## test: gofmt check, go vet, and every test with the race detector.
test: tools fmt-check vet race

tools:
	@command -v git >/dev/null || { echo "make test needs git (used to fsck vaults cairn writes)"; exit 1; }

fmt-check:
	@out="$$(gofmt -l $(GOFILES))"; if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

race:
	$(GO) test -race -count=1 -timeout 15m ./...

## demo: cairn's main job end to end on a temporary vault (no server, no key).
demo: build
	./scripts/demo.sh $(BIN)

## bench: Go benchmarks of the hot paths.
bench:
	$(GO) test -run '^$$' -bench . -benchtime 100x ./...

clean:
	rm -rf bin
