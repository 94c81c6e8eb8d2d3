# cairn: build, test, demo. `make test` is what CI runs.
GO      ?= go
BIN     ?= bin/cairn
GOFILES  = $(shell find . -name '*.go' -not -path './.git/*')

# The platforms cairn ships for; `make test` builds every one (see cross).
TARGETS  = linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64

# Release metadata: VERSION=v1.2.3 make release, or from git.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE    ?= $(shell git log -1 --format=%cI 2>/dev/null)
LDFLAGS  = -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)
DIST    ?= dist
RELEASE_URL ?= https://github.com/cairnmem/cairn/releases/download/$(VERSION)

.PHONY: all build install test fmt-check vet cross portable procs race demo bench clean tools browser release

# Every check but the race detector builds with cgo off, as releases do, so
# vet, cross, portable and procs share one build cache per target.
NOCGO    = CGO_ENABLED=0

all: build

build:
	$(GO) build -ldflags "-X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)" -o $(BIN) ./cmd/cairn

install:
	$(GO) install -ldflags "-X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)" ./cmd/cairn

## release: static binaries for every target in $(DIST): a .tar.gz per Unix
## target, a .zip for Windows, SHA256SUMS, and the Homebrew formula
## (cairn.rb) filled in from packaging/homebrew/cairn.rb.in. Archives are
## reproducible: file times are the commit's, owners are 0 (GNU tar).
release:
	@case "$(VERSION)" in *dirty*) echo "warning: releasing $(VERSION) from a modified work tree";; esac
	rm -rf $(DIST) && mkdir -p $(DIST)
	@set -e; v=$(patsubst v%,%,$(VERSION)); for t in $(TARGETS); do \
	  os=$${t%/*}; arch=$${t#*/}; name=cairn_$${v}_$${os}_$${arch}; dir=$(DIST)/$$name; exe=cairn; \
	  [ $$os = windows ] && exe=cairn.exe; \
	  echo "build $$name"; mkdir -p $$dir; \
	  GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $$dir/$$exe ./cmd/cairn; \
	  cp README.md $$dir/; \
	  touch -d "$(DATE)" $$dir $$dir/*; \
	  if [ $$os = windows ]; then (cd $(DIST) && zip -qrX $$name.zip $$name); \
	  else tar -C $(DIST) --sort=name --owner=0 --group=0 --numeric-owner -czf $(DIST)/$$name.tar.gz $$name; fi; \
	  rm -rf $$dir; \
	done
	cd $(DIST) && sha256sum cairn_* > SHA256SUMS
	@v=$(patsubst v%,%,$(VERSION)); sed -e "s|@VERSION@|$$v|g" -e "s|@URL@|$(RELEASE_URL)|g" \
	  $$(for t in darwin_arm64 darwin_amd64 linux_arm64 linux_amd64; do \
	    printf ' -e s|@SHA256_%s@|%s|g' $$t "$$(grep "_$${t}.tar.gz" $(DIST)/SHA256SUMS | cut -d' ' -f1)"; done) \
	  packaging/homebrew/cairn.rb.in > $(DIST)/cairn.rb
	@! grep -n '@[A-Za-z0-9_]*@' $(DIST)/cairn.rb || { echo "cairn.rb: placeholders left"; exit 1; }
	@cat $(DIST)/SHA256SUMS

## test: gofmt check, a static build for every target platform and go vet
## for each OS (see cross), and every test with the race detector, including the
## web viewer in headless Chromium (installed when missing); the scripts
## that test processes rather than goroutines run without it (procs).
test: tools browser fmt-check cross portable procs race

tools:
	@command -v git >/dev/null || { echo "make test needs git (used to fsck vaults cairn writes)"; exit 1; }

# The browser test drives Debian's chromium; install it when missing.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  echo "installing chromium and chromium-driver for the viewer's browser test"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null; }

fmt-check:
	@out="$$(gofmt -l $(GOFILES))"; if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(NOCGO) $(GO) vet ./...

# cross links cairn for each target with cgo off, so no platform can
# silently stop building, and vets every package, tests included, once per
# OS (VETTED): vet reads our sources, and none of them depends on the
# architecture; when one does (a _amd64/_arm64 file or an arch build tag),
# every target is vetted. Targets other than this machine's compile without
# optimization (-N -l): the check is that they build and vet, and it halves
# their cold compile; releases are built with the usual optimizations.
VETTED   = linux/amd64 darwin/arm64 windows/amd64
cross:
	@host=$$($(GO) env GOOS)/$$($(GO) env GOARCH); vetted="$(VETTED)"; \
	if git ls-files '*.go' | grep -qE '_(amd64|arm64)(_test)?\.go$$' || git grep -qE '^//go:build.*(amd64|arm64)' -- '*.go'; then vetted="$(TARGETS)"; fi; \
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && for t in $(TARGETS); do \
	  os=$${t%/*}; arch=$${t#*/}; gf='all=-N -l'; [ $$t = $$host ] && gf=; echo "cross $$os/$$arch"; \
	  GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) build -gcflags="$$gf" -o "$$tmp/cairn" ./cmd/cairn || exit 1; \
	  case " $$vetted " in *" $$t "*) GOOS=$$os GOARCH=$$arch CGO_ENABLED=0 $(GO) vet -gcflags="$$gf" ./... || exit 1;; esac; \
	done

# portable runs the index suite on Linux with the forms of the per-OS code
# that Windows uses (listing directories, mmap-go), which no Linux build
# would otherwise execute.
portable:
	$(NOCGO) $(GO) test -count=1 -tags cairn_portable ./index/...

# procs runs the scripts that kill, fuzz and race whole cairn processes
# ([race] skips them under -race, where each process is several times
# slower and a goroutine race is not what they look for).
procs:
	$(NOCGO) $(GO) test -count=1 -run 'TestScripts/^(kill|concurrent|hookfuzz)$$' ./cmd/cairn

# CAIRN_REQUIRE_BROWSER turns a missing chromium into a failure, never a skip.
# Screenshots of the viewer land in artifacts/screenshots/.
race:
	CGO_ENABLED=1 CAIRN_REQUIRE_BROWSER=1 $(GO) test -race -count=1 -timeout 15m ./...

## demo: cairn's main job end to end on a temporary vault (no server, no key).
demo: build
	./scripts/demo.sh $(BIN)

## bench: Go benchmarks of the hot paths.
bench:
	$(GO) test -run '^$$' -bench . -benchtime 100x ./...

clean:
	rm -rf bin $(DIST)
