#!/usr/bin/env bash
# Runs the browser unit test (`make test-wasm`) RUNS times with LOAD busy processes beside it
# and prints how many passed; exits 1 if any failed. A test that waits on a duration instead of
# a condition fails here long before it fails in CI (docs/testing.md, "Waiting on conditions,
# never on durations").
#
#   scripts/flake-check.sh [RUNS] [LOAD]     defaults: 10 runs, 2 busy processes
set -euo pipefail
runs="${1:-10}"
load="${2:-2}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
. scripts/env.sh
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
test_cmd=(cargo test --target wasm32-unknown-unknown -p scaling-explorer --test web)

# Build once, unloaded, so every run below measures the test and not the compiler.
"${test_cmd[@]}" --no-run

burners=()
stop_burners() { ((${#burners[@]})) && kill "${burners[@]}" 2>/dev/null || true; }
trap stop_burners EXIT
for ((i = 0; i < load; i++)); do
  bash -c 'while :; do :; done' &
  burners+=("$!")
done

passed=0
log="$(mktemp)"
for ((run = 1; run <= runs; run++)); do
  if "${test_cmd[@]}" >"$log" 2>&1; then
    passed=$((passed + 1))
    echo "flake-check: run $run/$runs passed"
  else
    echo "flake-check: run $run/$runs FAILED:"
    grep -E "panicked|waited|assert|FAILED|error" "$log" | head -n 20 | sed 's/^/  /'
  fi
done
rm -f "$log"
echo "flake-check: $passed of $runs runs passed with $load busy processes beside them"
((passed == runs))
