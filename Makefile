# vocab: `make demo` installs what is missing and shows the catalog; `make test` runs every test.
SWIFT ?= swift
PREFIX ?= /usr/local
RELEASE_FLAGS = -c release --static-swift-stdlib
BIN = .build/release/vocab
# `make demo` runs the debug build, the one `make test` builds its tests on, so that the second
# README command rebuilds nothing the first built (a release build is `make release`, which
# `make install` and the benchmarks use).
DEMO_BIN = .build/debug/vocab
DEMO_HOME ?= $(CURDIR)/.build/demo-home
SHELL := /bin/bash
# Linking the static `vocab` launcher makes glibc warn that getpwuid_r, dlopen and mktemp
# would need the same glibc at run time; the launcher calls none of them (docs/design.md).
# Those lines alone are dropped from the build output; the build's exit status is kept.
QUIET_STATIC_LINK = 2>&1 | { grep -v -e 'in statically linked applications requires at runtime' -e "the use of \`mktemp' is dangerous" || true; }; exit $${PIPESTATUS[0]}

.PHONY: deps build release demo test bench install clean

deps:
	@scripts/install-deps build

build: deps
	$(SWIFT) build $(QUIET_STATIC_LINK)

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) $(QUIET_STATIC_LINK)

demo: build
	@echo '$$ vocab categories'; VOCAB_HOME=$(DEMO_HOME) $(DEMO_BIN) categories
	@echo; echo '$$ vocab words animals --level starters --limit 12'; VOCAB_HOME=$(DEMO_HOME) $(DEMO_BIN) words animals --level starters --limit 12
	@echo; echo '$$ vocab show cat'; VOCAB_HOME=$(DEMO_HOME) $(DEMO_BIN) show cat
	@echo; echo '$$ vocab search meo'; VOCAB_HOME=$(DEMO_HOME) $(DEMO_BIN) search meo
	@echo; echo '$$ vocab say cat --accent british'; VOCAB_HOME=$(DEMO_HOME) $(DEMO_BIN) say cat --accent british
	@echo; echo '$$ vocab render --category colours --level starters --accent both --out $(DEMO_HOME)/clips'; \
		VOCAB_HOME=$(DEMO_HOME) $(DEMO_BIN) render --category colours --level starters --accent both --out $(DEMO_HOME)/clips

# format lint: the code follows .swift-format (swift-format from the toolchain; docs/design.md).
# refresh-readme --check: the pages' examples (catalog, HTTP, sign-in, classes, quiz, backups, audio; Mandarin
# and PostgreSQL when the full MOE dictionary is there) are this build's output
# (it fails on a difference).
# gen-emoji-table --check: the table of emoji a picture may be is what python3-emoji lists.
# node --test: the web app's modules on their own (strings, plurals), with Node's test runner.
# Then the checks that once ran only by hand, each on a small budget so that they run every time:
# kills mid-write (crash-safety), generated requests against openapi.json (fuzz-serve: no 5xx),
# and the Mandarin routes on both engines (check-moe-engines, on the committed sample).
test: deps
	@scripts/install-deps test
	$(SWIFT) format lint --strict --parallel --recursive Sources Tests Package.swift
	$(SWIFT) build --build-tests $(QUIET_STATIC_LINK)
	scripts/refresh-readme --check
	scripts/gen-emoji-table --check
	node --test Tests/Web/
	$(SWIFT) test --skip-build
	TRIALS=3 VOCAB=$(CURDIR)/.build/debug/vocab scripts/crash-safety
	FUZZ_EXAMPLES=5 FUZZ_TIME=45 scripts/fuzz-serve
	MOE_SOURCE=$(CURDIR)/Tests/Domains/MandarinTests/Fixtures/dict-revised-sample.json scripts/check-moe-engines

bench: release
	@scripts/install-deps bench
	scripts/bench-catalog
	scripts/bench-render
	scripts/bench-intelligibility
	scripts/bench-pronunciation
	scripts/bench-moe
	scripts/bench-mandarin
	scripts/bench-serve
	scripts/bench-review
	scripts/bench-serve-pg

# bin/vocab is the small launcher; it runs libexec/vocab/vocab-full for all but `vocab words`.
# The web app's files are a resource bundle that vocab-full finds beside itself, and so is the
# neural voice's and the listener's Python environments (neural-voice/ and listener/, which
# scripts/install-deps made).
install: release
	install -d $(PREFIX)/bin $(PREFIX)/libexec/vocab $(PREFIX)/share/vocab
	install -m 755 $(BIN) $(PREFIX)/bin/vocab
	install -m 755 $(BIN)-full $(PREFIX)/libexec/vocab/vocab-full
	rm -rf $(PREFIX)/libexec/vocab/vocab_WebApp.resources
	cp -r .build/release/vocab_WebApp.resources $(PREFIX)/libexec/vocab/
	rm -rf $(PREFIX)/libexec/vocab/neural-voice $(PREFIX)/libexec/vocab/listener
	if [ -d neural-voice ]; then cp -a neural-voice $(PREFIX)/libexec/vocab/; fi
	if [ -d listener ]; then cp -a listener $(PREFIX)/libexec/vocab/; fi
	cp -r Categories Pictures Audio $(PREFIX)/share/vocab/

clean:
	rm -rf .build
