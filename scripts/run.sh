#!/usr/bin/env bash
# Builds everything and serves the app at http://localhost:4173 with its security headers.
source "$(dirname "$0")/lib.sh"
ensure_rust_wasm
ensure_npm
write_contract
build_web
step "serving http://localhost:4173 (Ctrl-C stops)"
exec npx vite preview --port 4173 --strictPort
