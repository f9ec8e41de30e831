# choosy — see README.md. Every target installs the Debian packages it needs.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
# Every Swift file of the repository, for the formatter.
SWIFT_SOURCES := Package.swift Sources Tests Plugins fuzz Examples
# The binary make install installs; any other path skips the release build (the tests install
# the binary they test this way).
BINARY ?= .build/release/choosy

BINDIR := $(PREFIX)/bin
DATADIR := $(PREFIX)/share
MAN1DIR ?= $(DATADIR)/man/man1
BASH_COMPLETIONSDIR ?= $(DATADIR)/bash-completion/completions
# zsh's site-functions are in its fpath for /usr/local and /usr (Debian's own packages use
# vendor-completions, which make deb passes).
ZSH_COMPLETIONSDIR ?= $(DATADIR)/zsh/site-functions
# Inside PREFIX like everything else; when fish would not look there by itself, install says
# how to make it (scripts/fish-completions-note.sh).
FISH_COMPLETIONSDIR ?= $(DATADIR)/fish/vendor_completions.d
APPLICATIONSDIR := $(DATADIR)/applications
# The directories install created, for uninstall; empty: none recorded (make deb).
DIRS_RECORD ?= $(DATADIR)/choosy/installed-directories
STRIP ?= strip
INSTALL_DIRS = $(BINDIR) $(DATADIR)/choosy/catalog/app-data $(DATADIR)/choosy/clean $(MAN1DIR) $(BASH_COMPLETIONSDIR) \
	$(ZSH_COMPLETIONSDIR) $(FISH_COMPLETIONSDIR) $(APPLICATIONSDIR)
INSTALLED_FILES = $(BINDIR)/choosy $(MAN1DIR)/choosy.1 $(BASH_COMPLETIONSDIR)/choosy \
	$(ZSH_COMPLETIONSDIR)/_choosy $(FISH_COMPLETIONSDIR)/choosy.fish $(APPLICATIONSDIR)/choosy.desktop

BUILD_PACKAGES := libcurl4-openssl-dev binutils
# ICU (IDNA by UTS #46) and libpsl (the Public Suffix List) are loaded with dlopen when a link needs
# them, so they are needed to run, not to build.
WEB_PACKAGES := libicu72 libpsl5 libpcre2-8-0
# libsystemd's sd-bus, loaded the same way to call the desktop's services over D-Bus; its tests
# run a session bus of their own, and Python services on it.
DBUS_PACKAGES := libsystemd0 dbus-daemon python3-dbus python3-gi nodejs
# libxcb is loaded with dlopen when an X11 window manager is asked where the windows are.
WINDOW_PACKAGES := libxcb1
FUZZ_PACKAGES := $(BUILD_PACKAGES) $(WEB_PACKAGES)
TEST_PACKAGES := $(BUILD_PACKAGES) $(WEB_PACKAGES) $(WINDOW_PACKAGES) $(DBUS_PACKAGES) shared-mime-info i3 openbox foot xterm x11-utils python3 tmux fzf zsh fish bash-completion man-db groff-base desktop-file-utils libglib2.0-bin xvfb xdg-utils rofi zenity xdotool sway wtype fuzzel wofi bemenu tofi sqlite3
DEB_PACKAGES := dpkg-dev lintian binutils debugedit
BENCH_PACKAGES := $(BUILD_PACKAGES) python3 hyperfine libglib2.0-bin xdg-utils desktop-file-utils strace time valgrind binutils \
	xvfb rofi zenity sway fuzzel foot wtype python3-xlib shared-mime-info
# -z now, with the RELRO the linker already gives: every relocation is resolved at start and
# then made read-only, so a memory bug cannot redirect a call through them; choosy handles
# links from anywhere (lazy binding would save only 0.15 M instructions a command now).
# What every command pays before its first line (bench/README.md, "Start-up"):
# - libstdc++ and libgcc's unwinder, which the Swift runtime uses, are linked in as the runtime
#   itself is (packaging/link/libstdc++.so points -lstdc++ at the archive): loading libstdc++.so
#   and binding its symbols was a fifth of a warm command;
# - --no-export-dynamic: the toolchain exports every symbol of the program, which only makes
#   the loader's tables and the runtime's dladdr at start longer;
# - concrete generic types' metadata by accessor functions, not by mangled names that the
#   runtime demangles and whose conformances it looks up on first use;
# - the toolchain's lld, for its packed relative relocations (DT_RELR, glibc 2.36): the loader
#   applies the program's 28,000 pointers from a bitmap, and the binary is 0.7 MB smaller.
RELEASE_FLAGS := -c release --static-swift-stdlib -Xlinker -z -Xlinker now \
	-Xswiftc -L -Xswiftc $(CURDIR)/packaging/link -Xlinker -lgcc_eh -Xlinker --no-export-dynamic \
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
# Where make deb puts the package.
DEBDIR ?= build
# Seconds per fuzz target: `make fuzz` for a real search, the smoke pass inside `make test`.
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 8

.PHONY: all build check lint test test-release demo install uninstall deb bench fuzz fuzz-smoke catalog-verify clean deps-build deps-test deps-deb deps-bench deps-fuzz toolchain

all: build

# One clear line instead of a shell error when there is no Swift toolchain.
toolchain:
	@command -v $(SWIFT) >/dev/null 2>&1 || { echo "choosy needs a Swift 6 toolchain: '$(SWIFT)' is not on PATH (get one from https://www.swift.org/install/linux/, or run make SWIFT=/path/to/swift)" >&2; exit 1; }
	@$(SWIFT) --version 2>/dev/null | grep -q 'Swift version [6-9]' || { echo "choosy needs a Swift 6 toolchain; '$(SWIFT)' is $$($(SWIFT) --version 2>/dev/null | head -n 1)" >&2; exit 1; }

deps-build:
	@scripts/ensure-packages.sh $(BUILD_PACKAGES)

deps-test:
	@scripts/ensure-packages.sh $(TEST_PACKAGES)

deps-deb:
	@scripts/ensure-packages.sh $(DEB_PACKAGES)

deps-bench:
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)

deps-fuzz:
	@scripts/ensure-packages.sh $(FUZZ_PACKAGES)

## build: the release binary at .build/release/choosy
build: toolchain deps-build
	$(SWIFT) build $(RELEASE_FLAGS) --product choosy

# The tests that drive real picker windows run on their own, after the rest: with a hundred
# other tests starting processes beside them, a picker's window can take longer to appear than
# any bound worth waiting. A regular expression: --filter and --skip take one.
GUI_TESTS := RealGraphicalPickerTests|RealWaylandPickerTests

## check: the fast loop while working: the layer and citation checks and the library's own tests
## (ChoosyKitTests), with no packages installed, no end-to-end tests and no fuzzing
check: toolchain lint
	python3 scripts/check-layers.py
	python3 scripts/check-citations.py
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter 'ChoosyKitTests\.'

## test: the layer and citation checks, the Examples package, every test (ChoosyKitTests, then
## ChoosyEndToEndTests: the choosy binary run as a user runs it), then a short pass of every
## fuzz target
test: toolchain deps-test lint
	python3 scripts/check-layers.py
	python3 scripts/check-citations.py
	$(SWIFT) build --package-path Examples
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '$(GUI_TESTS)'
	$(SWIFT) test --skip-build --filter '$(GUI_TESTS)'
	@$(MAKE) --no-print-directory fuzz-smoke

## test-release: the end-to-end tests again, against the release binary that make install
## installs (it links differently from the debug one: lld, static libstdc++, packed relocations)
test-release: build deps-test
	$(SWIFT) build --build-tests
	CHOOSY_TEST_BINARY=$(CURDIR)/.build/release/choosy $(SWIFT) test --skip-build --filter 'ChoosyEndToEndTests' --skip '$(GUI_TESTS)'
	CHOOSY_TEST_BINARY=$(CURDIR)/.build/release/choosy $(SWIFT) test --skip-build --filter '$(GUI_TESTS)'

## lint: the Swift sources against .swift-format (swift format, from the toolchain); `swift
## format -i -r Sources Tests …` fixes what it finds
lint: toolchain
	$(SWIFT) format lint --strict --parallel -r $(SWIFT_SOURCES)

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

## install: binary (stripped), bundled catalog, man page, shell completions and desktop entry
## under $(DESTDIR)$(PREFIX); the completion scripts come from the binary itself
install: $(if $(filter .build/release/choosy,$(BINARY)),build)
	scripts/install-dirs.sh create "$(DESTDIR)" "$(DIRS_RECORD)" $(INSTALL_DIRS)
	install -m 755 -s --strip-program=$(STRIP) $(BINARY) $(DESTDIR)$(BINDIR)/choosy
	install -m 644 catalog/README.md $(DESTDIR)$(DATADIR)/choosy/catalog/
	install -m 644 catalog/app-data/*.json $(DESTDIR)$(DATADIR)/choosy/catalog/app-data/
	install -m 644 clean/README.md clean/LICENSE clean/data.min.json clean/choosy.json clean/shorteners.txt $(DESTDIR)$(DATADIR)/choosy/clean/
	install -m 644 doc/choosy.1 $(DESTDIR)$(MAN1DIR)/choosy.1
	$(BINARY) completions bash > $(DESTDIR)$(BASH_COMPLETIONSDIR)/choosy
	$(BINARY) completions zsh > $(DESTDIR)$(ZSH_COMPLETIONSDIR)/_choosy
	$(BINARY) completions fish > $(DESTDIR)$(FISH_COMPLETIONSDIR)/choosy.fish
	sed 's|@BINDIR@|$(BINDIR)|' data/choosy.desktop.in > $(DESTDIR)$(APPLICATIONSDIR)/choosy.desktop
	chmod 644 $(DESTDIR)$(BASH_COMPLETIONSDIR)/choosy $(DESTDIR)$(ZSH_COMPLETIONSDIR)/_choosy \
		$(DESTDIR)$(FISH_COMPLETIONSDIR)/choosy.fish $(DESTDIR)$(APPLICATIONSDIR)/choosy.desktop
	@scripts/fish-completions-note.sh $(FISH_COMPLETIONSDIR)

## uninstall: removes what install installed, and the directories it created that are empty
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	rm -rf $(DESTDIR)$(DATADIR)/choosy/catalog $(DESTDIR)$(DATADIR)/choosy/clean
	scripts/install-dirs.sh remove "$(DESTDIR)" "$(DIRS_RECORD)"
	rm -rf $(DESTDIR)$(DATADIR)/choosy

## deb: the Debian package $(DEBDIR)/choosy_<version>_<arch>.deb, built with dpkg-deb from the
## release binary and packaging/deb/ (see README "Debian package"); fails unless lintian is clean
deb: build deps-deb
	@deb=$$(scripts/build-deb.sh .build/release/choosy $(DEBDIR)) && echo "Built $$deb" && \
		lintian --fail-on error,warning "$$deb"

## bench: choosy against gio and xdg-mime on generated trees of 40, 400 and 4,000 desktop
## entries; prints medians and ratios and writes bench/RESULTS.md
bench: deps-bench build
	@bench/run.sh

## catalog-verify: the catalog's desktop IDs checked in Debian's packages (downloaded, never installed) into catalog/VERIFIED.md
catalog-verify:
	@scripts/ensure-packages.sh python3
	python3 catalog/verify.py

clean:
	rm -rf .build build
