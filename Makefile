# choosy — see README.md. Every target installs the Debian packages it needs.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
# The binary make install installs; any other path skips the release build (the tests install
# the binary they test this way).
BINARY ?= .build/release/choosy

BINDIR := $(PREFIX)/bin
DATADIR := $(PREFIX)/share
INSTALLED_FILES := $(BINDIR)/choosy $(DATADIR)/man/man1/choosy.1 \
	$(DATADIR)/bash-completion/completions/choosy $(DATADIR)/zsh/site-functions/_choosy \
	$(DATADIR)/fish/vendor_completions.d/choosy.fish $(DATADIR)/applications/choosy.desktop

BUILD_PACKAGES := libcurl4-openssl-dev
# libidn2 (IDNA) and libpsl (the Public Suffix List) are loaded with dlopen when a link needs
# them, so they are needed to run, not to build.
WEB_PACKAGES := libidn2-0 libpsl5
FUZZ_PACKAGES := $(BUILD_PACKAGES) $(WEB_PACKAGES)
TEST_PACKAGES := $(BUILD_PACKAGES) $(WEB_PACKAGES) python3 tmux fzf zsh fish bash-completion man-db groff-base desktop-file-utils libglib2.0-bin
BENCH_PACKAGES := $(BUILD_PACKAGES) python3 hyperfine libglib2.0-bin xdg-utils desktop-file-utils strace time valgrind binutils
RELEASE_FLAGS := -c release --static-swift-stdlib
# Seconds per fuzz target: `make fuzz` for a real search, the smoke pass inside `make test`.
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 8

.PHONY: all build test demo install uninstall bench fuzz fuzz-smoke catalog-verify clean deps-build deps-test deps-bench deps-fuzz toolchain

all: build

# One clear line instead of a shell error when there is no Swift toolchain.
toolchain:
	@command -v $(SWIFT) >/dev/null 2>&1 || { echo "choosy needs a Swift 6 toolchain: '$(SWIFT)' is not on PATH (get one from https://www.swift.org/install/linux/, or run make SWIFT=/path/to/swift)" >&2; exit 1; }
	@$(SWIFT) --version 2>/dev/null | grep -q 'Swift version [6-9]' || { echo "choosy needs a Swift 6 toolchain; '$(SWIFT)' is $$($(SWIFT) --version 2>/dev/null | head -n 1)" >&2; exit 1; }

deps-build:
	@scripts/ensure-packages.sh $(BUILD_PACKAGES)

deps-test:
	@scripts/ensure-packages.sh $(TEST_PACKAGES)

deps-bench:
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)

deps-fuzz:
	@scripts/ensure-packages.sh $(FUZZ_PACKAGES)

## build: the release binary at .build/release/choosy
build: toolchain deps-build
	$(SWIFT) build $(RELEASE_FLAGS) --product choosy

## test: the layer check, the Examples package, every test (unit and end to end), then a
## short pass of every fuzz target
test: toolchain deps-test
	python3 scripts/check-layers.py
	$(SWIFT) build --package-path Examples
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@$(MAKE) --no-print-directory fuzz-smoke

## fuzz: each libFuzzer target for FUZZ_SECONDS (see fuzz/README.md); fails on any crash
fuzz: toolchain deps-fuzz
	fuzz/build.sh
	fuzz/run.sh $(FUZZ_SECONDS)

fuzz-smoke: toolchain deps-fuzz
	fuzz/build.sh
	fuzz/run.sh $(FUZZ_SMOKE_SECONDS)

## demo: the main job in a throwaway sandbox of desktop entries and recorder apps
demo: build
	@scripts/demo.sh .build/release/choosy

## install: binary, bundled catalog, man page, shell completions and desktop entry under
## $(DESTDIR)$(PREFIX); the completion scripts come from the binary itself
install: $(if $(filter .build/release/choosy,$(BINARY)),build)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/choosy/catalog/app-data $(DESTDIR)$(DATADIR)/man/man1 \
		$(DESTDIR)$(DATADIR)/bash-completion/completions $(DESTDIR)$(DATADIR)/zsh/site-functions \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d $(DESTDIR)$(DATADIR)/applications
	install -m 755 $(BINARY) $(DESTDIR)$(BINDIR)/choosy
	install -m 644 catalog/README.md $(DESTDIR)$(DATADIR)/choosy/catalog/
	install -m 644 catalog/app-data/*.json $(DESTDIR)$(DATADIR)/choosy/catalog/app-data/
	install -m 644 doc/choosy.1 $(DESTDIR)$(DATADIR)/man/man1/choosy.1
	$(BINARY) completions bash > $(DESTDIR)$(DATADIR)/bash-completion/completions/choosy
	$(BINARY) completions zsh > $(DESTDIR)$(DATADIR)/zsh/site-functions/_choosy
	$(BINARY) completions fish > $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/choosy.fish
	sed 's|@BINDIR@|$(BINDIR)|' data/choosy.desktop.in > $(DESTDIR)$(DATADIR)/applications/choosy.desktop
	chmod 644 $(DESTDIR)$(DATADIR)/bash-completion/completions/choosy $(DESTDIR)$(DATADIR)/zsh/site-functions/_choosy \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/choosy.fish $(DESTDIR)$(DATADIR)/applications/choosy.desktop

## uninstall: removes what install installed
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	rm -rf $(DESTDIR)$(DATADIR)/choosy

## bench: choosy against gio and xdg-mime on generated trees of 40, 400 and 4,000 desktop
## entries; prints medians and ratios and writes bench/RESULTS.md
bench: deps-bench build
	@bench/run.sh

## catalog-verify: the catalog's desktop IDs checked in Debian's packages (downloaded, never installed) into catalog/VERIFIED.md
catalog-verify:
	@scripts/ensure-packages.sh python3
	python3 catalog/verify.py

clean:
	rm -rf .build
