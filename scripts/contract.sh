#!/usr/bin/env bash
# Writes web/src/shared/contract.ts, the wire contract's TypeScript types and the core's defaults,
# from the Rust types (crate/core/src/contract.rs; `cargo test` fails when it is stale).
source "$(dirname "$0")/lib.sh"
write_contract
