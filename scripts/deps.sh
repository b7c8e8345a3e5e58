#!/usr/bin/env bash
# Installs what dtx needs to build and test, from Debian's packages and the npm registry only.
#
#   scripts/deps.sh native|wasm|browser|all
#
#   native   engine + CLI with g++: cmake, GoogleTest, Google Benchmark, json, md4c, imgui, node;
#            unzip and xmllint (libxml2-utils), which the SCORM package's tests open and check
#            the zip with (tools dtx did not write)
#   wasm     native + Debian's emscripten (3.1.6); googletest's source is rebuilt with em++
#   browser  chromium, the fonts we subset, fonttools, rsvg-convert (librsvg2-bin, the app
#            icons), and the npm packages in build/node/:
#            playwright-core (browser tests), axe-core (the accessibility audit) and
#            scorm-again (a SCORM 2004 runtime: the LMS the package's test runs under)
# Every group also gets the code sandbox's npm packages (build/node/): the QuickJS interpreter
# compiled to WebAssembly (quickjs-emscripten-core + one wasm variant) and esbuild, which
# bundles sandbox/ for the page's worker and the CLI's host (scripts/build-sandbox.mjs);
# and ajv, for the pack schema test that `make check` runs too.
#   all      all of the above
#
# Idempotent: prints nothing and exits 0 when everything is already there. Runs apt-get update
# only when something has to be installed. Works as root, or as a user with sudo.
set -euo pipefail

usage() { echo "usage: scripts/deps.sh native|wasm|browser|all" >&2; exit 2; }
[[ $# -eq 1 ]] || usage

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

native_pkgs=(cmake g++ make pkg-config nlohmann-json3-dev libgtest-dev googletest
             libbenchmark-dev libmd4c-dev libimgui-dev nodejs unzip libxml2-utils)
# googletest ships its source in /usr/src/googletest: the wasm build compiles gtest with em++.
wasm_pkgs=("${native_pkgs[@]}" emscripten googletest)
browser_pkgs=(chromium fonts-inter fonts-jetbrains-mono fonttools librsvg2-bin)

want_browser=0
case "$1" in
  native)  wanted=("${native_pkgs[@]}") ;;
  wasm)    wanted=("${wasm_pkgs[@]}") ;;
  browser) wanted=("${browser_pkgs[@]}" nodejs); want_browser=1 ;;
  all)     wanted=("${wasm_pkgs[@]}" "${browser_pkgs[@]}"); want_browser=1 ;;
  *)       usage ;;
esac

is_installed() {
  [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}

missing=()
declare -A seen=()
for pkg in "${wanted[@]}"; do
  [[ -n "${seen[$pkg]:-}" ]] && continue
  seen[$pkg]=1
  is_installed "$pkg" || missing+=("$pkg")
done

# npm packages the tests use, installed into build/node/ (never globally). Pinned: an exact
# version, or a major version where any release of it will do.
npm_pkgs=(playwright-core@1 axe-core@4.11.0 scorm-again@3.4.3)
sandbox_npm_pkgs=(quickjs-emscripten-core@0.32.0 @jitl/quickjs-wasmfile-release-sync@0.32.0 esbuild@0.28.2 ajv@8.20.0)
node_dir="$repo_root/build/node"

# True when build/node holds `name` at `want` (exact, or the major version `want` names).
npm_has() {
  local name=$1 want=$2 have
  have=$(sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "$node_dir/node_modules/$name/package.json" 2>/dev/null | head -n 1)
  [[ -n "$have" && ( "$have" == "$want" || "$have" == "$want".* ) ]]
}

npm_missing=()
wanted_npm=("${sandbox_npm_pkgs[@]}")
(( want_browser )) && wanted_npm+=("${npm_pkgs[@]}")
for spec in "${wanted_npm[@]}"; do
  npm_has "${spec%@*}" "${spec##*@}" || npm_missing+=("$spec")
done

# npm: NodeSource's nodejs bundles npm (and conflicts with Debian's npm package); Debian's nodejs
# does not. Ask for Debian's npm only when no npm command will be there otherwise.
if (( ${#npm_missing[@]} )); then
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi

as_root() {
  if [[ $EUID -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "deps.sh: need root to install: ${missing[*]} (run as root, or install sudo)" >&2
    exit 1
  fi
}

if (( ${#missing[@]} )); then
  echo "deps.sh: installing Debian packages: ${missing[*]}"
  apt_env=(env DEBIAN_FRONTEND=noninteractive)
  apt_opts=(-q -o DPkg::Lock::Timeout=300)
  if ! as_root "${apt_env[@]}" apt-get "${apt_opts[@]}" update; then
    echo "deps.sh: apt-get update failed: check the network and /etc/apt/sources.list.d/" >&2
    exit 1
  fi
  if ! as_root "${apt_env[@]}" apt-get "${apt_opts[@]}" install -y --no-install-recommends "${missing[@]}"; then
    echo "deps.sh: apt-get install failed for: ${missing[*]}" >&2
    exit 1
  fi
fi

if (( ${#npm_missing[@]} )); then
  echo "deps.sh: installing npm ${npm_missing[*]} into build/node/"
  mkdir -p "$node_dir"
  if ! npm install --prefix "$node_dir" --save-exact --no-audit --no-fund --no-update-notifier "${npm_missing[@]}"; then
    echo "deps.sh: npm install of ${npm_missing[*]} failed: check access to the npm registry" >&2
    exit 1
  fi
fi
