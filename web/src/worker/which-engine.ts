// Which engine this worker's requests use: the page's first engine (engine.ts), until a request
// needs the full one (full-engine.ts), which is this worker's engine from then on.

import * as first from '../../pkg/pseudolens_wasm.js';
import type { KeptTable } from '../../pkg/pseudolens_full.js';

/** The full engine's exports: the first engine's are the same but the original and control
 * tables and protect (crate/wasm, feature `full`), which only the full engine is asked for. */
export type Engine = typeof import('../../pkg/pseudolens_full.js');

let current: Engine = first as unknown as Engine;

/** This worker's engine, whose objects (the kept table, side tables, audits) are given to each
 * other: an object of one engine cannot be given to the other. */
export function wasm(): Engine {
  return current;
}

/** Whether this worker's engine is the full one. */
export function isFull(): boolean {
  return current !== (first as unknown as Engine);
}

/** Makes `engine` (instantiated) this worker's engine. */
export function setEngine(engine: Engine): void {
  current = engine;
}

/** `table`, made by `engine`, in this worker's engine: moved there as its bytes when the full
 * engine took over while it was being read. */
export function inCurrent(table: KeptTable, engine: Engine): KeptTable {
  if (engine === current) return table;
  const bytes = table.to_bytes();
  table.free();
  return current.KeptTable.from_bytes(bytes);
}
