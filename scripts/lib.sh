# Shared steps of the run, test and bench scripts: install what is missing, skip what is there.
# Sourced, not run.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
# npm warnings (e.g. about a machine-wide config) would otherwise land after the test summary.
export npm_config_loglevel=error

# The wasm-bindgen version pinned in Cargo.toml; the CLI must be the same version.
WASM_BINDGEN_VERSION=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' Cargo.toml)

step() { printf '\n== %s\n' "$*"; }

ensure_rust_wasm() {
  # rustfmt and clippy: the test command's guard rails (scripts/test.sh).
  for component in rustfmt clippy; do
    if ! rustup component list --installed | grep -q "^$component"; then
      step "adding the $component component"
      rustup component add "$component"
    fi
  done
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    step "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
  if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
    step "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 10 minutes, once)"
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
}

ensure_npm() {
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    step "installing npm packages"
    npm ci --no-audit --no-fund
  fi
}

ensure_chromium() {
  local bin="${CHROME_BIN:-/usr/bin/chromium}"
  if [ ! -x "$bin" ] || [ ! -x /usr/bin/chromedriver ]; then
    step "installing Debian chromium and chromium-driver"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  export CHROME_BIN="$bin"
}

build_wasm() {
  step "building the wasm core"
  # Three modules from one crate (issue 40): the first engine the page loads, the full engine
  # the audit worker fetches when a request needs it, and the Parquet and Excel readers it
  # fetches when such a file is chosen. Each build writes the same file, so each is bound right
  # after it.
  local module
  for module in engine:pseudolens_wasm full:pseudolens_full readers:pseudolens_readers; do
    cargo build --profile wasm --target wasm32-unknown-unknown -p pseudolens-wasm --no-default-features --features "${module%%:*}"
    wasm-bindgen --target web --out-dir web/pkg --out-name "${module#*:}" target/wasm32-unknown-unknown/wasm/pseudolens_wasm.wasm
    # wasm-opt (npm binaryen) strips the names and producers sections (1.78 -> 1.65 MB). No -O
    # passes: measured in V8 on 1M rows, -O3 made the audit 25-50 % slower than LLVM's own
    # opt-level 3 + LTO output (docs/decisions/wasm/wasm-opt-strips-only.md).
    npx --no-install wasm-opt --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-multivalue --enable-reference-types --strip-debug --strip-producers \
      "web/pkg/${module#*:}_bg.wasm" -o "web/pkg/${module#*:}_bg.wasm"
  done
}

# The tests do not write it: `cargo test` fails when the checked-in file is stale.
write_contract() {
  step "writing the TypeScript contract (web/src/shared/contract.ts) from the Rust types"
  PSEUDOLENS_WRITE_CONTRACT=1 cargo test -q -p pseudolens-core --lib contract:: >/dev/null
}

build_cli() {
  step "building the native CLI"
  cargo build --release -p pseudolens
}

build_web() {
  build_wasm
  step "building the page"
  npx vite build --logLevel warn
}

ensure_python_deps() {
  if ! python3 -c "import numpy, scipy, pytest, pycanon" 2>/dev/null; then
    step "installing numpy, scipy, pytest and pyCANON for the cross-checks"
    python3 -m pip install --quiet --disable-pip-version-check numpy scipy pytest pycanon==1.3.6
  fi
}

# Anonymeter 1.0.0 (PyPI) for the attacks' cross-check (tests/crosscheck/test_anonymeter.py),
# in its own virtual environment .venv-anonymeter: it needs numpy < 1.27 and numba, which the
# other cross-checks' numpy 2 does not allow.
ANONYMETER_VENV="$ROOT/.venv-anonymeter"
ensure_anonymeter() {
  if ! "$ANONYMETER_VENV/bin/python" -c "import anonymeter" 2>/dev/null; then
    step "installing Anonymeter 1.0.0 into .venv-anonymeter"
    [ -x "$ANONYMETER_VENV/bin/python" ] || python3 -m venv "$ANONYMETER_VENV"
    "$ANONYMETER_VENV/bin/python" -m pip install --quiet --disable-pip-version-check anonymeter==1.0.0
  fi
}

# sdnist 2.4 and sdmetrics 0.32.0 (PyPI), the synthetic measures' oracles
# (tests/crosscheck/test_synthetic*.py, spec synthetic.md Sec 14), in their own virtual
# environment .venv-sdnist: sdnist pins pandas 2.0.0 and scikit-learn 1.2.2.
SDNIST_VENV="$ROOT/.venv-sdnist"
ensure_sdnist() {
  if ! "$SDNIST_VENV/bin/python" -c "import sdnist.report, sdmetrics" 2>/dev/null; then
    step "installing sdnist 2.4 and sdmetrics 0.32.0 into .venv-sdnist"
    [ -x "$SDNIST_VENV/bin/python" ] || python3 -m venv "$SDNIST_VENV"
    "$SDNIST_VENV/bin/python" -m pip install --quiet --disable-pip-version-check sdnist==2.4 sdmetrics==0.32.0
  fi
}

# Spark's JVM for the Python package's Spark test: Debian's headless Java 17.
ensure_java() {
  if ! command -v java >/dev/null 2>&1; then
    step "installing Debian openjdk-17-jre-headless for Spark"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openjdk-17-jre-headless >/dev/null
  fi
}

# What the Python package's tests need, in their own virtual environment .venv-py: maturin,
# pyarrow, pandas, polars, pyspark, duckdb, pytest, and Spark's Java.
PY_VENV="$ROOT/.venv-py"
ensure_python_package_deps() {
  ensure_java
  [ -x "$PY_VENV/bin/python" ] || { step "creating the virtual environment .venv-py"; python3 -m venv "$PY_VENV"; }
  if ! "$PY_VENV/bin/python" -c "import maturin, pyarrow, pandas, polars, pyspark, duckdb, pytest" 2>/dev/null; then
    step "installing maturin, pyarrow, pandas, polars, pyspark, duckdb and pytest into .venv-py"
    "$PY_VENV/bin/python" -m pip install --quiet --disable-pip-version-check maturin pyarrow pandas polars pyspark duckdb pytest
  fi
}

# The Python package (python/, the PyO3 crate crate/python) installed into .venv-py
# (maturin develop), built again only when the Rust or Python sources changed since the last
# build. The tests take the dev profile: after `cargo test --workspace` only the binding is
# compiled (a release build with LTO takes minutes more; `pip install ./python` builds that one).
build_python_package() {
  local stamp="$PY_VENV/.pseudolens-built"
  if [ ! -f "$stamp" ] || [ Cargo.lock -nt "$stamp" ] \
    || [ -n "$(find crate/core crate/formats crate/python python -newer "$stamp" -type f ! -name '*.so' ! -path '*/__pycache__/*' -print -quit)" ]; then
    step "building the Python package (maturin develop)"
    (cd python && VIRTUAL_ENV="$PY_VENV" PATH="$PY_VENV/bin:$PATH" maturin develop --quiet)
    touch "$stamp"
  fi
}
