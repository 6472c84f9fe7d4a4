#!/usr/bin/env bash
# Writes web/src/shared/contract.ts (the TypeScript contract) and builds web/pkg (the wasm core and
# its JS glue) from crate/wasm.
source "$(dirname "$0")/lib.sh"
ensure_rust_wasm
ensure_npm
write_contract
build_wasm
