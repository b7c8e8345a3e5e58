# dtx build entry points. Each target first installs what is missing (Debian packages via
# apt-get, npm packages into build/node; quiet when everything is there), then builds.
#
#   make test    everything builds, every test runs (native + engine under node), ctest summary
#   make lint    build/native/dtx lint exercises/
#   make bench   load/lint/grade timings, native and wasm, and their ratio
SHELL := /bin/bash
.DEFAULT_GOAL := test
export NODE_PATH := /usr/share/nodejs

NATIVE_DIR := build/native
WASM_DIR := build/wasm

.PHONY: deps-native deps-wasm native wasm-engine test lint bench clean

deps-native:
	@scripts/deps.sh native

deps-wasm:
	@scripts/deps.sh wasm

$(NATIVE_DIR)/build.ninja: CMakeLists.txt CMakePresets.json tests/CMakeLists.txt | deps-native
	@cmake --preset native >/dev/null

native: deps-native $(NATIVE_DIR)/build.ninja
	@cmake --build --preset native

$(WASM_DIR)/build.ninja: CMakeLists.txt CMakePresets.json tests/CMakeLists.txt | deps-wasm
	@cmake --preset wasm >/dev/null

# The engine and its unit tests compiled by em++ (run under node by ctest).
wasm-engine: deps-wasm $(WASM_DIR)/build.ninja
	@cmake --build --preset wasm --target dtx_tests dtx_bench_plain

test: native wasm-engine
	@cd $(NATIVE_DIR) && ctest --output-on-failure -j2

lint: native
	@$(NATIVE_DIR)/dtx lint exercises/

bench: native wasm-engine
	@scripts/bench.sh

clean:
	rm -rf build
