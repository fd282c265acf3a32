# shellcheck shell=bash
# Sourced (never executed) by the Makefile recipes, .ci/run and developers' shells:
#   . scripts/env.sh
# Puts the tools that scripts/bootstrap.sh installs on PATH:
#   $HOME/.cargo/bin        trunk, wasm-bindgen, wasm-bindgen-test-runner (cargo install)
#   <repo>/node_modules/.bin wasm-opt (npm binaryen@132), playwright-core
# Idempotent: sourcing it twice does not grow PATH.
_se_repo="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
for _se_dir in "$_se_repo/node_modules/.bin" "${CARGO_HOME:-$HOME/.cargo}/bin"; do
  case ":$PATH:" in
    *":$_se_dir:"*) ;;
    *) PATH="$_se_dir:$PATH" ;;
  esac
done
export PATH
# wasm-bindgen-test-runner drives this chromedriver (with crates/web/webdriver.json) for crates/web/tests/web.rs.
if [ -z "${CHROMEDRIVER:-}" ] && [ -x /usr/bin/chromedriver ]; then
  export CHROMEDRIVER=/usr/bin/chromedriver
fi
unset _se_repo _se_dir
