# dtx build entry points. Each target first installs what is missing (Debian packages via
# apt-get, npm packages into build/node; quiet when everything is there), then builds.
#
#   make serve   build the site into dist/ and serve it on http://localhost:8080 (PORT=... overrides);
#                a pack saved under exercises/ is reloaded in the open page
#   make dist    the static site alone, in dist/ (copy the folder to any static web server)
#   make check   the inner loop: native engine, CLI and tests built in build/dev (-O1, all cores),
#                no Emscripten, no browser; runs the unit tests (CHECK_LABELS='unit|content|cli|ui|security'
#                runs every native test)
#   make test    everything builds, every test runs (native, engine under node, browser), ctest summary
#   make lint    build/native/dtx lint exercises/
#   make bench   load/lint/grade timings, native and wasm, and their ratio
#   make sweep   the slow sweeps `make test` samples: every pipeline timeline p <= 32, m <= 128
#   make fuzz    libFuzzer + ASan + UBSan on the pack loader, expressions, answers and progress,
#                FUZZ_SECONDS each (default 60; FUZZ_TARGETS="pack expr" for some); not in `make test`
SHELL := /bin/bash
.DEFAULT_GOAL := test
export NODE_PATH := /usr/share/nodejs

NATIVE_DIR := build/native
DEV_DIR := build/dev
JOBS := $(shell nproc 2>/dev/null || echo 2)
WASM_DIR := build/wasm

.PHONY: deps-native deps-wasm deps-browser native wasm-engine web dist serve check test lint bench clean

PORT ?= 8080

deps-native:
	@scripts/deps.sh native

deps-wasm:
	@scripts/deps.sh wasm

deps-browser:
	@scripts/deps.sh browser

$(NATIVE_DIR)/build.ninja: CMakeLists.txt CMakePresets.json tests/CMakeLists.txt | deps-native
	@cmake --preset native >/dev/null

native: deps-native $(NATIVE_DIR)/build.ninja
	@cmake --build --preset native

$(WASM_DIR)/build.ninja: CMakeLists.txt CMakePresets.json tests/CMakeLists.txt | deps-wasm
	@cmake --preset wasm >/dev/null

# The engine and its unit tests compiled by em++ (run under node by ctest). The wasm build of
# the plain benchmark (dtx_bench_plain.js) is `make bench`'s alone: its code compiles natively
# in every build, and its em++ link is 25 s of the gate that no test uses.
wasm-engine: deps-wasm $(WASM_DIR)/build.ninja
	@cmake --build --preset wasm --target dtx_tests

# The page: dtx.js + dtx.wasm from web/, then the static site in dist/.
web: deps-wasm deps-browser $(WASM_DIR)/build.ninja
	@cmake --build --preset wasm --target dtx_web dtx_outline

dist: web
	@scripts/build-dist.sh $(WASM_DIR) dist
	@echo "dist/ is ready: $$(du -sh dist | cut -f1) of static files"

# --watch: exercises/ is served from the source folder and the open page reloads a saved pack.
serve: dist
	@node scripts/serve.mjs dist --port $(PORT) --watch exercises

$(DEV_DIR)/build.ninja: CMakeLists.txt CMakePresets.json tests/CMakeLists.txt | deps-native
	@cmake --preset dev >/dev/null

# CHECK_LABELS picks other ctest labels: 'unit|content|cli|ui|security' is every native test.
CHECK_LABELS ?= unit
check: deps-native $(DEV_DIR)/build.ninja
	@cmake --build --preset dev
	@ctest --preset dev -j$(JOBS) -L '$(CHECK_LABELS)'

test: native wasm-engine dist
	@cd $(NATIVE_DIR) && ctest --output-on-failure -j$(JOBS)

lint: native
	@$(NATIVE_DIR)/dtx lint --seeds 200 exercises/

# dtx_web_names: the page linked with function names kept, for the wasm size breakdown.
bench: native wasm-engine dist
	@cmake --build --preset wasm --target dtx_web_names dtx_bench_plain
	@scripts/bench.sh

clean:
	rm -rf build dist

# Fuzzing (scripts/fuzz.sh): clang builds into build/fuzz; crashes go to build/fuzz/artifacts/.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
.PHONY: sweep
sweep: native
	@cd $(NATIVE_DIR) && DTX_FULL_SWEEP=1 ctest --output-on-failure -R 'Sweep'

.PHONY: fuzz
fuzz:
	@scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)
