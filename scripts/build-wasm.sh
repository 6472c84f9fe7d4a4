#!/usr/bin/env bash
# Builds web/pkg (the wasm core and its JS glue) from crate/wasm.
source "$(dirname "$0")/lib.sh"
ensure_rust_wasm
ensure_npm
build_wasm
