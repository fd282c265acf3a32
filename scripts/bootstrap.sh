#!/usr/bin/env bash
# Installs what building and testing scaling-explorer needs, idempotently.
# Every step checks first and does nothing when the tool is already there, so a second run
# takes seconds. One line of output per step.
#
#   1. rustup target wasm32-unknown-unknown
#   2. trunk 0.21.14                 (cargo install --locked; 0.22 needs a newer rustc)
#   3. wasm-bindgen-cli = the wasm-bindgen version in Cargo.lock (cargo install, NOT --locked)
#   4. npm devDependencies            (binaryen@132's wasm-opt, playwright-core, axe-core,
#                                      lighthouse@12.2.3 for `make lighthouse`)
#   5. Debian chromium, chromium-driver, fonts-noto-cjk (browser tests, CJK glyphs)
#
# It exports nothing: source scripts/env.sh to put the installed tools on PATH.
#
#   scripts/bootstrap.sh          install what is missing
#   scripts/bootstrap.sh --check  only report; exit 1 if anything would be installed
set -euo pipefail

check_only=0
case "${1:-}" in
  "") ;;
  --check) check_only=1 ;;
  -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
missing_any=0
verb="installing"; (( check_only )) && verb="missing; would install"
# Runs an install command, or in --check mode only says what it would run.
run() {
  if (( check_only )); then
    missing_any=1
    printf 'bootstrap:   would run: %s\n' "$*"
  else
    "$@"
  fi
}

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

TRUNK_VERSION="0.21.14"
cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
# Look for tools where cargo and npm put them (this PATH change stays inside this script).
PATH="$repo/node_modules/.bin:$cargo_bin:$PATH"

step() { printf 'bootstrap: %-18s %s\n' "$1" "$2"; }
die() { printf 'bootstrap: error: %s\n' "$*" >&2; exit 1; }

# 1. wasm target ------------------------------------------------------------------------------
command -v rustup >/dev/null 2>&1 || die "rustup not found (install Rust via rustup first)"
if rustup target list --installed | grep -qx 'wasm32-unknown-unknown'; then
  step "wasm32 target" "present"
else
  step "wasm32 target" "$verb (rustup target add wasm32-unknown-unknown)"
  run rustup target add wasm32-unknown-unknown
fi

# 2. trunk ------------------------------------------------------------------------------------
trunk_have="$(trunk --version 2>/dev/null || true)"
if [[ "$trunk_have" == *" $TRUNK_VERSION"* ]]; then
  step "trunk" "present ($trunk_have)"
else
  step "trunk" "$verb $TRUNK_VERSION (was: ${trunk_have:-none}; cargo install, ~8 min)"
  run cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# 3. wasm-bindgen-cli: must equal the wasm-bindgen library version exactly --------------------
wb_version=""
if [[ -f Cargo.lock ]]; then
  # [[package]] / name = "wasm-bindgen" / version = "X"
  wb_version="$(awk '
    /^\[\[package\]\]/ { in_wb = 0 }
    /^name = "wasm-bindgen"$/ { in_wb = 1; next }
    in_wb && /^version = / { gsub(/"/, "", $3); print $3; exit }
  ' Cargo.lock)"
fi
if [[ -z "$wb_version" ]]; then
  # Fallback: the exact pin in Cargo.toml, e.g. wasm-bindgen = "=0.2.130" or { version = "=0.2.130" }.
  wb_version="$(sed -nE 's/^wasm-bindgen[[:space:]]*=.*"=([0-9][0-9A-Za-z.+-]*)".*/\1/p' Cargo.toml | head -n 1)"
fi
[[ -n "$wb_version" ]] || die "cannot find the wasm-bindgen version in Cargo.lock or an '=' pin in Cargo.toml"
wb_have="$(wasm-bindgen --version 2>/dev/null || true)"
# `wasm-bindgen --version` prints e.g. "wasm-bindgen 0.2.130".
if [[ "$wb_have" == "wasm-bindgen $wb_version" || "$wb_have" == "wasm-bindgen $wb_version "* ]] \
   && command -v wasm-bindgen-test-runner >/dev/null 2>&1; then
  step "wasm-bindgen-cli" "present ($wb_have)"
else
  step "wasm-bindgen-cli" "$verb $wb_version (was: ${wb_have:-none}; cargo install without --locked, ~2 min)"
  # No --locked: the CLI's own lockfile names a crate version the registry mirror lacks.
  run cargo install wasm-bindgen-cli --version "$wb_version" --force
fi

# 4. npm devDependencies ----------------------------------------------------------------------
command -v npm >/dev/null 2>&1 || die "npm not found (install Node.js >= 20)"
# Every package the build, the tests and the audits load; one missing means node_modules is stale.
npm_present() {
  [[ -d node_modules && -x node_modules/.bin/wasm-opt && -d node_modules/playwright-core \
     && -f node_modules/axe-core/axe.min.js && -x node_modules/.bin/lighthouse && -d node_modules/terser ]]
}
if [[ -f package-lock.json ]]; then
  if npm_present && [[ ! package-lock.json -nt node_modules ]]; then
    step "npm packages" "present (node_modules up to date with package-lock.json)"
  else
    step "npm packages" "$verb (npm ci)"
    run npm ci --no-audit --no-fund --loglevel=error
    run touch node_modules
  fi
else
  if npm_present; then
    step "npm packages" "present (no package-lock.json)"
  else
    step "npm packages" "$verb (npm install; no package-lock.json)"
    run npm install --no-audit --no-fund --loglevel=error
    run touch node_modules
  fi
fi

# 5. Debian browser + fonts -------------------------------------------------------------------
cjk_font_present() {
  compgen -G '/usr/share/fonts/opentype/noto/NotoSansCJK-*' >/dev/null 2>&1 \
    || { command -v fc-list >/dev/null 2>&1 && [[ -n "$(fc-list :lang=zh family 2>/dev/null | head -n 1)" ]]; }
}
missing=()
[[ -x /usr/bin/chromium ]] || missing+=("chromium")
[[ -x /usr/bin/chromedriver ]] || missing+=("chromium-driver")
cjk_font_present || missing+=("fonts-noto-cjk")
if (( ${#missing[@]} == 0 )); then
  step "browser packages" "present (/usr/bin/chromium, /usr/bin/chromedriver, CJK font)"
else
  step "browser packages" "$verb ${missing[*]} (apt-get)"
  if (( check_only )); then
    run apt-get install -y "${missing[@]}"
  else
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install chromium, chromium-driver and a CJK font by hand"
    sudo=()
    if [[ "$(id -u)" != 0 ]]; then
      command -v sudo >/dev/null 2>&1 || die "not root and no sudo: install ${missing[*]} by hand"
      sudo=(sudo)
    fi
    # Install the whole trio: chromium and chromium-driver must be the same build.
    pkgs=(chromium chromium-driver fonts-noto-cjk)
    if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${pkgs[@]}"; then
      step "browser packages" "install failed; running apt-get update and retrying"
      "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
      "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${pkgs[@]}"
    fi
  fi
fi

if (( check_only )); then
  if (( missing_any )); then step "check" "something is missing (run scripts/bootstrap.sh)"; exit 1; fi
  step "check" "everything is present"
else
  step "done" "tools ready (source scripts/env.sh to put them on PATH)"
fi
