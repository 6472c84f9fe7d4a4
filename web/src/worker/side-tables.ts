// The side tables of an audit (the original, the population table, the attacks' control
// table): each streamed into its reader (`Original`, `Reference`), read before the released
// file, kept while the same file is given with the same settings, and given to the audit.

import type { KeptTable, OriginalTable, Population } from '../../pkg/pseudolens_full.js';
import { check_side } from '../../pkg/pseudolens_wasm.js';
import type { Target } from '../shared/protocol';
import type { AuditConfig } from '../shared/report';
import { withEncodingRetry } from './encoding-retry';
import { wasm } from './which-engine';
import { headOf } from './file-chunks';
import { stream, type Sink } from './stream-read';

/** A reader of a table beside the released one: `Reference` (population) or `Original`. */
interface SideReader<T> extends Sink {
  finish(): T;
  free(): void;
}

/**
 * Reads a side table into its finished handle (the caller frees it). `forced` remembers, per
 * target, that a file had to be read as windows-1252, so a second read starts with it.
 */
function readSide<T>(id: number, file: File, target: Target, forced: Set<Target>, open: (encoding: 'windows-1252' | null) => SideReader<T>): Promise<T> {
  return withEncodingRetry(id, target, forced.has(target), async (encoding) => {
    // The engine decides whether the file can be this side table (it must be CSV).
    check_side((await headOf(file)).subarray(0, 8), file.name, target);
    if (encoding) forced.add(target);
    const reader = open(encoding);
    try {
      await stream(id, file, target, reader);
      return reader.finish();
    } finally {
      reader.free(); // finish() empties the reader but leaves its handle to be freed
    }
  });
}

/** The side tables an audit uses (shared with it, not copied). */
export interface Sides {
  population: Population | null;
  original: OriginalTable | null;
  /** The attacks' control table, read like the original. */
  control: OriginalTable | null;
}

/** Gives a kept table exactly these side tables (those of an earlier audit are dropped). */
export function giveSides(table: KeptTable, sides: Sides): void {
  table.clear_sides();
  if (sides.original) table.set_original(sides.original);
  if (sides.population) table.set_population(sides.population);
  if (sides.control) table.set_control(sides.control);
}

/** A side table read once, kept while the same file is given with the same settings. */
interface KeptSide<T> {
  file: File;
  settings: string;
  table: T;
}

/** The side tables last read, and the targets that had to be read as windows-1252. */
const sideCache: { original: KeptSide<OriginalTable> | null; population: KeptSide<Population> | null; control: KeptSide<OriginalTable> | null } = {
  original: null,
  population: null,
  control: null,
};
const sideForced = new Set<Target>();

export function forgetSides(): void {
  sideCache.original = dropSide(sideCache.original);
  sideCache.population = dropSide(sideCache.population);
  sideCache.control = dropSide(sideCache.control);
  sideForced.clear();
}

/** The same file (a File posted twice arrives as two objects) read with the same settings. */
const sameSide = <T>(side: KeptSide<T> | null, file: File, settings: string): side is KeptSide<T> =>
  side !== null && side.settings === settings && side.file.name === file.name && side.file.size === file.size && side.file.lastModified === file.lastModified;

/** Frees a kept side table. */
function dropSide<T extends { free(): void }>(side: KeptSide<T> | null): null {
  side?.table.free();
  return null;
}

/**
 * The side tables of an audit with `config`: read first, so a problem in one shows before the
 * long pass, and only once while the same files are given with the same settings (a second
 * attempt as windows-1252, every candidate of a comparison, every recompute).
 */
export async function sidesFor(
  id: number,
  config: AuditConfig,
  original: File | null,
  reference: File | null,
  control: File | null,
  onTarget: (t: Target) => void,
): Promise<Sides> {
  const settings = JSON.stringify(config);
  if (!original || !sameSide(sideCache.original, original, settings)) sideCache.original = dropSide(sideCache.original);
  if (original && !sideCache.original) {
    onTarget('original');
    const table = await readSide(id, original, 'original', sideForced, (e) => new (wasm().Original)(config, e));
    sideCache.original = { file: original, settings, table };
  }
  if (!reference || !sameSide(sideCache.population, reference, settings)) sideCache.population = dropSide(sideCache.population);
  if (reference && !sideCache.population) {
    onTarget('population');
    const table = await readSide(id, reference, 'population', sideForced, (e) => new (wasm().Reference)(config, e));
    sideCache.population = { file: reference, settings, table };
  }
  if (!control || !sameSide(sideCache.control, control, settings)) sideCache.control = dropSide(sideCache.control);
  if (control && !sideCache.control) {
    onTarget('control');
    const table = await readSide(id, control, 'control', sideForced, (e) => new (wasm().Original)(config, e));
    sideCache.control = { file: control, settings, table };
  }
  onTarget('table');
  return { original: sideCache.original?.table ?? null, population: sideCache.population?.table ?? null, control: sideCache.control?.table ?? null };
}
