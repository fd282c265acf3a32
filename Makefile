# scaling-explorer: build, serve and test.
#
#   make bootstrap   install the toolchain idempotently (seconds when present)
#   make build       release build of the page into dist/ (Trunk, offline)
#   make serve       build, then serve dist/ on http://127.0.0.1:8080
#   make test        everything CI runs: fmt, clippy (native + wasm), rustdoc, native tests,
#                    browser tests (wasm-bindgen-test), release build, Playwright e2e
#   make bench       build, then measure load time, redraw time per input (also at 4x CPU
#                    throttling), transfer size, and the chart against uPlot and Plotly.js
#                    (docs/performance.md); not part of `make test`
#   make mutants     cargo-mutants over crates/model and src/panel (docs/testing.md); hours, so
#                    it runs in shards: make mutants MUTANTS_SHARD=0/8; not part of `make test`
#   make lighthouse  build, then Lighthouse performance (mobile), accessibility and best-practices
#                    scores of the main views (docs/accessibility.md, docs/performance.md); not
#                    part of `make test`
#   make flake-check run the browser unit test (test-wasm) 10 times with two busy processes
#                    beside it (FLAKE_RUNS, FLAKE_LOAD); not part of `make test`
#   make clean       remove build output (target/, dist/, test-results/)
#
# Every recipe line sources scripts/env.sh, which puts ~/.cargo/bin and node_modules/.bin
# on PATH; nothing needs to be exported in your shell.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

ENV    := . scripts/env.sh &&
HOST   ?= 127.0.0.1
PORT   ?= 8080
CHROMEDRIVER ?= /usr/bin/chromedriver

.PHONY: bootstrap build serve test bench lighthouse clean distclean \
        fmt-check clippy clippy-wasm doc-check test-native test-fuzz test-wasm trunk-build test-e2e \
        snapshots

bootstrap:
	bash scripts/bootstrap.sh

# ---- build --------------------------------------------------------------------------------

build: bootstrap trunk-build

trunk-build:
	$(ENV) trunk build --release --offline

serve: build
	@echo "serving dist/ at http://$(HOST):$(PORT)/ (Ctrl-C to stop)"
	$(ENV) node scripts/serve.mjs --dir dist --host $(HOST) --port $(PORT)

# ---- test ---------------------------------------------------------------------------------
# Order: cheap checks first, then tests, then the release build the e2e tests load.

test: bootstrap
	$(MAKE) --no-print-directory fmt-check
	$(MAKE) --no-print-directory clippy
	$(MAKE) --no-print-directory clippy-wasm
	$(MAKE) --no-print-directory doc-check
	$(MAKE) --no-print-directory test-native
	$(MAKE) --no-print-directory test-fuzz
	$(MAKE) --no-print-directory test-wasm
	$(MAKE) --no-print-directory trunk-build
	$(MAKE) --no-print-directory test-e2e

fmt-check:
	$(ENV) cargo fmt --check

clippy:
	$(ENV) cargo clippy --workspace --all-targets -- -D warnings

# The workspace as a whole (its features unified), then each module the page ships on its own,
# in the features it is built with: code one module leaves unused is dead there.
clippy-wasm:
	$(ENV) cargo clippy --workspace --lib --target wasm32-unknown-unknown -- -D warnings
	$(ENV) cargo clippy -p scaling-explorer-page --target wasm32-unknown-unknown -- -D warnings
	$(ENV) cargo clippy -p scaling-explorer-full --target wasm32-unknown-unknown -- -D warnings
	$(ENV) cargo clippy -p scaling-runs --target wasm32-unknown-unknown -- -D warnings

# The API docs build with no warning (broken intra-doc links fail).
doc-check:
	$(ENV) RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

test-native:
	$(ENV) cargo test --workspace

# Decoder fuzzing at full size: 100,000 random and mutated links through decode, the sweeps,
# the tables and the charts (tests/fuzz_decode.rs). `cargo test` runs 10,000 of them in debug;
# the release build is several times faster per case. FUZZ_SEED / FUZZ_CASES override seed and count.
test-fuzz:
	$(ENV) cargo test --release --test fuzz_decode

# Headless Chromium via chromedriver; wasm-bindgen-test-runner reads crates/web/webdriver.json
# (cargo runs a package's tests in its directory).
test-wasm:
	$(ENV) CHROMEDRIVER=$(CHROMEDRIVER) cargo test --target wasm32-unknown-unknown -p scaling-explorer --lib --test web

# test-wasm again and again under load: a wait on a duration fails here first (docs/testing.md).
FLAKE_RUNS ?= 10
FLAKE_LOAD ?= 2

.PHONY: flake-check
flake-check: bootstrap
	bash scripts/flake-check.sh $(FLAKE_RUNS) $(FLAKE_LOAD)

# Playwright (playwright-core + Debian chromium) against dist/ served on 127.0.0.1.
test-e2e:
	$(ENV) node --test tests/e2e/

# ---- generated files (not part of `make test`, which checks them) ----------------------------
# Rewrites what is generated from the chart and preset tables: the CLI's byte-for-byte output
# snapshots (crates/cli/tests/snapshots/) and docs/embedding.md's chart list. Run it after a
# deliberate change of output, then read `git diff` before committing.

snapshots:
	$(ENV) SNAPSHOTS=write cargo test --quiet -p scaling-cli --test cli snapshots::
	$(ENV) SNAPSHOTS=write cargo test --quiet --test core registry::

# ---- benchmark (not part of `make test`) ---------------------------------------------------
# Headless Chromium against dist/ on 127.0.0.1, about 5 minutes; prints PASS/FAIL per target
# (the Plotly.js ratio as a reference, without one), writes test-results/bench.json with the
# commit and the machine, then rewrites docs/performance.md's results section from it
# (bench/results.mjs). BENCH_ARGS goes to bench/bench.mjs (e.g. --quick; --strict exits 1 on a
# missed target); a partial run (--only, --panels) leaves the doc alone.

BENCH_ARGS ?=

bench: bootstrap trunk-build
	$(ENV) node bench/bench.mjs $(BENCH_ARGS)
	$(ENV) if node -e 'process.exit(require("./test-results/bench.json").targets ? 0 : 1)'; then node bench/results.mjs; fi

# ---- Lighthouse (not part of `make test`) --------------------------------------------------
# npm lighthouse@12.2.3 with Debian's chromium against dist/ on 127.0.0.1, about 20 s a page,
# mobile with simulated slow 4G and 4x CPU; prints the accessibility and best-practices scores
# of ?v=1, view=strong, view=plan, view=learn and embed=strong and fails below 95; prints the
# performance score, LCP, CLS, TBT and FCP of all but view=plan, and of a link the build did
# not prerender, each the median of five runs, against their targets without failing
# (LIGHTHOUSE_ARGS='--runs 5 --strict' fails on them too); writes test-results/lighthouse/*.json.
# LIGHTHOUSE_ARGS goes to scripts/lighthouse.mjs (other queries, --min, --runs, --strict).

LIGHTHOUSE_ARGS ?= --runs 5

lighthouse: bootstrap trunk-build
	$(ENV) node scripts/lighthouse.mjs $(LIGHTHOUSE_ARGS)

# ---- mutation testing (not part of `make test`) ---------------------------------------------
# cargo-mutants 27.1.0 over the model and the panel layer (.cargo/mutants.toml says which tests
# run per mutant). About 20 s a mutant on 2 cores and ~800 mutants, so run it in shards:
# `make mutants MUTANTS_SHARD=3/8`; MUTANTS_FILES picks files (`crates/model/src/step.rs`), MUTANTS_ARGS
# adds options (`--list`).
# Results in mutants.out/ (caught.txt, missed.txt, timeout.txt, unviable.txt).
# --workspace finds crates/model's files; --baseline=skip because cargo-mutants 27.1 runs its
# unmutated baseline on the mutated package alone, where the root crate's golden suites named in
# .cargo/mutants.toml do not exist (the mutants themselves run the workspace's tests:
# test_workspace = true). `make test` is the baseline.

MUTANTS_SHARD ?= 0/1
MUTANTS_FILES ?= crates/model/src/*.rs src/panel/*.rs
MUTANTS_ARGS ?=
MUTANTS_VERSION := 27.1.0

.PHONY: mutants
mutants: bootstrap
	$(ENV) cargo mutants --version 2>/dev/null | grep -q ' $(MUTANTS_VERSION)$$' \
	  || cargo install cargo-mutants --locked --version $(MUTANTS_VERSION)
	$(ENV) cargo mutants --workspace --baseline=skip --timeout 300 --shard $(MUTANTS_SHARD) $(foreach f,$(MUTANTS_FILES),-f '$(f)') $(MUTANTS_ARGS)

# ---- clean --------------------------------------------------------------------------------

clean:
	rm -rf dist test-results mutants.out mutants.out.old
	$(ENV) cargo clean

# Also drops the npm packages (bootstrap reinstalls them).
distclean: clean
	rm -rf node_modules

# ---- offline single file ------------------------------------------------------------------
# dist-single/scaling-explorer.html: one self-contained HTML file (CSS, JS and wasm inlined)
# that opens straight from disk (file://). docs/offline.md says how and why.

.PHONY: single-file clean-single-file

single-file: build
	$(ENV) node scripts/single-file.mjs --dist dist --out dist-single/scaling-explorer.html

clean-single-file:
	rm -rf dist-single

clean: clean-single-file
