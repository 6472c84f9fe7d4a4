// The parallel read of the audit worker (issue 12): N reader workers (part-worker.ts) read byte
// ranges of the file into partial tables beside one more that hashes the file in order; the
// parts are merged here, in file order, into the `KeptTable` every audit of the file then
// reads. A part that guessed its start wrong (it began inside a quoted field) is read again
// from where the part before it ended. Anything else that goes wrong in a part gives `null`:
// the caller reads the file on one thread, which finds the problem with its exact line.

import type { KeptTable } from '../../pkg/pseudolens_full.js';
import { probe } from '../../pkg/pseudolens_wasm.js';
import type { Probe } from '../shared/contract';
import { HEAD_BYTES, headOf } from './file-chunks';
import { hashedInOnePiece, type CellsFormat, type PartRequest, type PartResponse, type Span } from '../shared/part-protocol';
import type { CspViolation } from '../shared/protocol';
import { toWireError, type AuditConfig, type WireError } from '../shared/report';
import { readersModule } from './readers';
import { spawnWorker } from './spawn';
import { inCurrent, wasm } from './which-engine';
import readerWorkerUrl from './part-worker.ts?worker&url';

/** At most this many reader workers, whatever the cores (each holds a part in memory). */
const MAX_READERS = 4;
/** A part is at least this long: a smaller file is read by fewer workers. */
const MIN_PART_BYTES = 256 << 10;
/**
 * The core's reading of the start of `blob` with `config`: its encoding, delimiter and header;
 * null when it must be read whole (UTF-16, a header not found in the first MiB).
 */
export async function probeStart(blob: Blob, config: AuditConfig): Promise<Probe | null> {
  const prefix = await headOf(blob);
  return probe(config, prefix, blob.size <= HEAD_BYTES) as Probe | null;
}

/**
 * The SHA-256 of a file read in parts. A file hashed in one piece (put together from the
 * chunks the readers send on) is hashed only once `get()` is first called: the copy and the
 * digest (about 0.1 s for 100 MB) then need not take a core from the merge and the page's
 * drawing of the profile at the end of the read.
 */
export interface FileHash {
  /** The hex digest; null when it could not be computed. */
  get(): Promise<string | null>;
  /** It will not be asked for: the bytes put together for it are dropped. */
  forget(): void;
}

/** How many reader workers to start: one per core, capped, at least one. */
export function readerCount(cores: number | undefined): number {
  return Math.max(1, Math.min(MAX_READERS, cores ?? 1));
}

/** The byte ranges of a file of `size` bytes for `n` readers, the first exact at 0. */
function spans(size: number, n: number): Span[] {
  const parts = Math.max(1, Math.min(n, Math.floor(size / MIN_PART_BYTES)));
  return Array.from({ length: parts }, (_, i) => ({
    start: Math.floor((size * i) / parts),
    end: i + 1 === parts ? Infinity : Math.floor((size * (i + 1)) / parts),
    exact: i === 0,
  }));
}

/** A request before it gets its id (each member of the union). */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

type Answer =
  | { ok: true; table: ArrayBuffer }
  | { ok: true; hex: string }
  | { ok: true; footer: Uint8Array; groups: number[] }
  | { ok: true; stats: Uint8Array }
  | { ok: true; replicates: Uint8Array }
  | { ok: false; error: WireError };

/** What a reader's final message answers. */
function answerOf(m: Extract<PartResponse, { type: 'part' | 'hash' | 'groups' | 'stats' | 'replicates' | 'failed' }>): Answer {
  switch (m.type) {
    case 'stats':
      return { ok: true, stats: m.stats };
    case 'replicates':
      return { ok: true, replicates: m.replicates };
    case 'part':
      return { ok: true, table: m.table };
    case 'hash':
      return { ok: true, hex: m.hex };
    case 'groups':
      return { ok: true, footer: m.footer, groups: m.groups };
    case 'failed':
      return { ok: false, error: m.error };
  }
}

/** Contiguous runs of `groups` row groups for `readers` readers: [first, count] each. */
export function groupRuns(groups: number, readers: number): [number, number][] {
  const parts = Math.max(1, Math.min(readers, groups));
  return Array.from({ length: parts }, (_, p) => {
    const first = Math.floor((groups * p) / parts);
    return [first, Math.floor((groups * (p + 1)) / parts) - first] as [number, number];
  });
}

/** The SHA-256 in the hasher's answer; null when the hasher failed. */
function hexOf(answer: Answer): string | null {
  return answer.ok && 'hex' in answer ? answer.hex : null;
}

/** Gives the merged table the file's SHA-256 from the hasher; false when the hasher failed. */
async function sealed(kept: KeptTable, hash: Promise<Answer>): Promise<boolean> {
  const hex = hexOf(await hash);
  if (hex === null) return false;
  kept.set_sha256(hex);
  return true;
}

/** Appends `next` to `kept` (consuming it); false when they do not join (read on one thread). */
function merged(kept: KeptTable, next: KeptTable): boolean {
  try {
    kept.merge(next);
    return true;
  } catch {
    return false;
  }
}

/** One reader worker and the request it is working on. */
interface Reader {
  worker: Worker;
  ready: Promise<void>;
  /** Its engine stopped (a reader panicked): it takes no more requests. */
  stopped: boolean;
  /** Settles once it has answered every request sent so far (they are served in order). */
  idle: Promise<unknown>;
  pending: Map<number, { resolve: (a: Answer) => void; progress: (bytes: number, rows: number) => void }>;
}

/** The reader workers of one audit worker, started with it so no fetch happens later. */
export class ReaderPool {
  private readers: Reader[];
  private readonly hasher: Reader;
  private nextId = 1;

  /** `engine`: the compiled engine, which every reader instantiates (see `engine` requests). */
  constructor(size: number, engine: Promise<WebAssembly.Module>, onViolation: (v: CspViolation) => void) {
    const spawn = (): Reader => {
      const worker = spawnWorker(readerWorkerUrl, 'pseudolens-reader');
      const pending: Reader['pending'] = new Map();
      const reader = { worker, pending, stopped: false, idle: Promise.resolve() } as Reader;
      const ready = new Promise<void>((resolve, reject) => {
        engine.then((module) => worker.postMessage({ type: 'engine', id: 0, module } satisfies PartRequest), reject);
        worker.addEventListener('message', (e: MessageEvent<PartResponse>) => {
          const m = e.data;
          switch (m.type) {
            case 'ready':
              return resolve();
            case 'engine_failed':
              return reject(m.error);
            case 'csp_violation':
              return onViolation(m.violation);
            case 'progress':
              return pending.get(m.id)?.progress(m.bytes, m.rows);
            case 'stopped': {
              reader.stopped = true;
              this.readers = this.readers.filter((r) => r !== reader);
              worker.terminate();
              const waiting = pending.get(m.id);
              pending.delete(m.id);
              return waiting?.resolve({ ok: false, error: m.error });
            }
            default: {
              const waiting = pending.get(m.id);
              pending.delete(m.id);
              waiting?.resolve(answerOf(m));
            }
          }
        });
        worker.addEventListener('error', (e) => {
          e.preventDefault();
          const error = toWireError(new Error(e.message || 'A reader worker failed.'));
          reject(error);
          for (const { resolve: answer } of pending.values()) answer({ ok: false, error });
          pending.clear();
        });
      });
      reader.ready = ready;
      return reader;
    };
    this.readers = Array.from({ length: size }, spawn);
    this.hasher = spawn();
    for (const reader of this.readers) {
      const { port1, port2 } = new MessageChannel();
      reader.worker.postMessage({ type: 'port', id: 0, port: port1, side: 'reader' } satisfies PartRequest, [port1]);
      this.hasher.worker.postMessage({ type: 'port', id: 0, port: port2, side: 'hasher' } satisfies PartRequest, [port2]);
    }
  }

  /** Resolves when every reader has loaded the engine. */
  ready(): Promise<void> {
    return Promise.all([...this.readers, this.hasher].map((r) => r.ready)).then(() => undefined);
  }

  get size(): number {
    return this.readers.length;
  }

  /**
   * Reads a whole Parquet or Excel file into a kept table in one reader worker (a panic of the
   * third-party reader then stops that worker, not the audit worker); `null` when no reader is
   * left. Throws the engine's error for a file it cannot read.
   */
  async readCells(blob: Blob, config: AuditConfig, format: CellsFormat, sheet: string | null): Promise<KeptTable | null> {
    const reader = this.readers.find((r) => !r.stopped);
    if (!reader) return null;
    const readers = await readersModule();
    const answer = await this.ask(reader, { type: 'cells', readers, blob, config, format, sheet }, () => undefined);
    if (!answer.ok) throw answer.error;
    if (!('table' in answer)) return null;
    return wasm().KeptTable.from_bytes(new Uint8Array(answer.table));
  }

  /**
   * Reads a Parquet file of several row groups in parts (row groups are its natural units):
   * one reader reads its directory (the footer at its end), then each reader gets the footer
   * and the bytes of a contiguous run of row groups, beside one more hashing the file; the
   * parts merge in group order. `null` when the file has one row group or fewer than two
   * readers are left (the caller reads it whole in one reader). Throws the engine's error for
   * a file it cannot read.
   */
  async readParquet(blob: Blob, config: AuditConfig): Promise<{ table: KeptTable; parts: number } | null> {
    const readers = this.readers.filter((r) => !r.stopped);
    if (readers.length < 2) return null;
    const module = await readersModule();
    const plan = await this.ask(readers[0]!, { type: 'groups', readers: module, blob }, () => undefined);
    if (!plan.ok) throw plan.error;
    if (!('groups' in plan)) return null;
    const { footer, groups } = plan;
    const runs = groupRuns(groups.length / 3, readers.length);
    if (runs.length < 2) return null;
    const hash = this.ask(this.hasher, { type: 'hash', blob, gather: null }, () => undefined);
    // The parts merge in the engine they were started in (one request may make the full engine
    // this worker's meanwhile); the table is moved at the end.
    const engine = wasm();
    const parts = runs.map(([first, count], i) => {
      const [start, end] = [groups[3 * first + 1]!, groups[3 * (first + count - 1) + 2]!];
      return this.ask(readers[i]!, { type: 'parquet', readers: module, blob, config, footer, start, end, first, count }, () => undefined);
    });
    let kept: KeptTable | null = null;
    try {
      for (const pending of parts) {
        const part = await pending;
        if (!part.ok) throw part.error;
        if (!('table' in part)) return null;
        const table = engine.KeptTable.from_bytes(new Uint8Array(part.table));
        if (!kept) kept = table;
        else kept.merge(table);
      }
      if (!kept || !(await sealed(kept, hash))) return null;
      const whole = kept;
      kept = null;
      return { table: inCurrent(whole, engine), parts: runs.length };
    } finally {
      kept?.free();
    }
  }

  /**
   * The statistics of an audit's attribution lattice (`PendingAudit.lattice`, transferred),
   * computed by a reader worker: they sit idle during an audit, while the audit worker
   * computes the other metrics. `null` when no reader is left or it failed (the caller
   * computes them itself).
   */
  async attributionStats(lattice: Uint8Array): Promise<Uint8Array | null> {
    const reader = this.readers.find((r) => !r.stopped);
    if (!reader) return null;
    const answer = await this.ask(reader, { type: 'lattice', lattice }, () => undefined, [lattice.buffer]);
    return answer.ok && 'stats' in answer ? answer.stats : null;
  }

  /**
   * The replicates of parts of an audit's bootstrap (`PendingAudit.bootstrap`), computed by
   * reader workers beside the audit worker, which takes parts from the same `take()` once the
   * other metrics are done: each reader takes the next part as it answers one, until there is
   * none. At most as many workers compute as there are readers (one per core): every reader
   * but the last takes parts, the first (the one given the lattice, `attributionStats`) once
   * it has answered it. A part a reader could not compute is missing (the audit computes it
   * itself), and that reader takes no more.
   */
  async bootstrapParts(bootstrap: Uint8Array, take: () => number | null): Promise<Uint8Array[]> {
    const parts: Uint8Array[] = [];
    const from = async (reader: Reader, part: number | null): Promise<void> => {
      for (; part !== null; part = reader.stopped ? null : take()) {
        const answer = await this.ask(reader, { type: 'bootstrap', bootstrap, part }, () => undefined);
        if (!answer.ok || !('replicates' in answer)) return;
        parts.push(answer.replicates);
      }
    };
    const live = this.readers.filter((r) => !r.stopped);
    // An idle reader is given its first part now: the audit worker is busy until its own
    // metrics are done, and hands out the next parts only between its own.
    const runs = live
      .slice(0, Math.max(1, live.length - 1))
      .map((reader) => (reader.pending.size === 0 ? from(reader, take()) : reader.idle.then(() => from(reader, take()))));
    await Promise.all(runs);
    return parts;
  }

  private ask(
    reader: Reader,
    request: Unnumbered<PartRequest>,
    progress: (bytes: number, rows: number) => void,
    transfer: Transferable[] = [],
  ): Promise<Answer> {
    const id = this.nextId++;
    const answer = new Promise<Answer>((resolve) => {
      reader.pending.set(id, { resolve, progress });
      reader.worker.postMessage({ ...request, id } as PartRequest, transfer);
    });
    reader.idle = answer;
    return answer;
  }

  /**
   * Reads `blob` into a kept table in parts (how many: `parts`), and its SHA-256 (`hash`);
   * `null` when it is better read on one thread (UTF-16, a header the probe does not find, or
   * a problem in a part). `progress(bytes, rows)` gets the bytes of the file read so far and
   * the rows found, first when the parts start.
   */
  async read(
    blob: Blob,
    config: AuditConfig,
    progress: (bytes: number, rows: number) => void,
  ): Promise<{ table: KeptTable; parts: number; hash: FileHash } | null> {
    if (this.size === 0) return null;
    const found = await probeStart(blob, config);
    if (!found) return null;
    const ranges = spans(blob.size, this.size);
    const done = ranges.map(() => ({ bytes: 0, rows: 0 }));
    const tell = () =>
      progress(
        Math.min(
          blob.size,
          done.reduce((s, d) => s + d.bytes, 0),
        ),
        done.reduce((s, d) => s + d.rows, 0),
      );
    tell(); // the parts start: the file is being read
    // Hashed in one piece: from the chunks the readers send on, not read once more.
    const gather = hashedInOnePiece(blob.size) ? this.nextId++ : null;
    const readPart = (i: number, span: Span) =>
      this.ask(this.readers[i % this.size]!, { type: 'part', blob, config, probe: found, span, gather }, (bytes, rows) => {
        done[i] = { bytes, rows };
        tell();
      });
    const askHash = () => this.ask(this.hasher, { type: 'hash', blob, gather }, () => undefined).then(hexOf);
    // Read in order beside the parts (no gathering), the hash starts now.
    let asked = gather === null ? askHash() : null;
    // The chunks gathered for a hash that will not be asked for are dropped.
    const dropGathering = () => {
      if (gather !== null) this.hasher.worker.postMessage({ type: 'forget', id: 0, gather } satisfies PartRequest);
    };
    const parts = ranges.map((span, i) => readPart(i, span));
    // As `readParquet`: merged in the engine they were started in, moved at the end.
    const engine = wasm();
    let kept: KeptTable | null = null;
    let handedOver = false;
    try {
      for (const [i, span] of ranges.entries()) {
        let part = await parts[i]!;
        let table = part.ok && 'table' in part ? engine.KeptTable.from_bytes(new Uint8Array(part.table)) : null;
        if (kept) {
          const end = (kept.bounds() as { end: number }).end;
          if ((table?.bounds() as { first: number } | null)?.first !== end) {
            table?.free();
            part = await readPart(i, { ...span, start: end, exact: true });
            table = part.ok && 'table' in part ? engine.KeptTable.from_bytes(new Uint8Array(part.table)) : null;
          }
        }
        if (!table) return null;
        if (!kept) kept = table;
        else if (!merged(kept, table)) return null;
      }
      if (!kept) return null;
      const whole = kept;
      kept = null;
      handedOver = true;
      const forget = () => {
        if (!asked) dropGathering();
      };
      return { table: inCurrent(whole, engine), parts: ranges.length, hash: { get: () => (asked ??= askHash()), forget } };
    } finally {
      kept?.free();
      // A read that failed: its chunks need not be put together.
      if (!handedOver) dropGathering();
    }
  }
}
