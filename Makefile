# choosy — see README.md. Every target installs the Debian packages it needs.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift

BUILD_PACKAGES := libcurl4-openssl-dev
TEST_PACKAGES := $(BUILD_PACKAGES) python3 tmux fzf zsh fish man-db groff-base desktop-file-utils
RELEASE_FLAGS := -c release --static-swift-stdlib
# Seconds per fuzz target: `make fuzz` for a real search, the smoke pass inside `make test`.
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 8

.PHONY: all build test demo install uninstall bench fuzz fuzz-smoke clean deps-build deps-test

all: build

deps-build:
	@scripts/ensure-packages.sh $(BUILD_PACKAGES)

deps-test:
	@scripts/ensure-packages.sh $(TEST_PACKAGES)

## build: the release binary at .build/release/choosy
build: deps-build
	$(SWIFT) build $(RELEASE_FLAGS) --product choosy

## test: every test (unit and end to end), then a short pass of every fuzz target
test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@$(MAKE) --no-print-directory fuzz-smoke

## fuzz: each libFuzzer target for FUZZ_SECONDS (see fuzz/README.md); fails on any crash
fuzz: deps-build
	fuzz/build.sh
	fuzz/run.sh $(FUZZ_SECONDS)

fuzz-smoke: deps-build
	fuzz/build.sh
	fuzz/run.sh $(FUZZ_SMOKE_SECONDS)

## demo: the main job in a throwaway sandbox of desktop entries and recorder apps
demo: build
	@scripts/demo.sh .build/release/choosy

clean:
	rm -rf .build
