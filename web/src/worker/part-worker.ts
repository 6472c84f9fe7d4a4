// A reader worker of the parallel read, started by the audit worker (worker.ts): it reads one
// byte range of a file into a partial table (`TableReader`) and transfers the table's bytes
// back, reads a whole Parquet or Excel file into a table (`read_cells`), a Parquet file's
// directory (`parquet_groups`) or a run of its row groups (`read_parquet_groups`: only the
// footer and those groups' bytes are read), or hashes the whole
// file (the browser's own SHA-256 in one piece up to ONE_PIECE_HASH_BYTES, put together from
// the chunks the readers send on through their ports to it, else `Hasher` in order); during an
// audit of the kept table it computes the audit's attribution lattice (`attribution_stats`) and
// parts of its bootstrap (`bootstrap_part`). It
// keeps nothing between requests but, in the hasher, the files being put together. A panic of a
// third-party reader aborts its WebAssembly instance (a `WebAssembly.RuntimeError`): it says so
// and closes. Its engine is the module the audit worker compiled (an `engine` request first);
// the Parquet and Excel readers are a module of their own, sent with the requests that need it.

import init, { Hasher, TableReader, attribution_stats, bootstrap_part } from '../../pkg/pseudolens_wasm.js';
import { hashedInOnePiece, type PartRequest, type PartResponse, type ChunkCopy } from '../shared/part-protocol';
import { PROGRESS_INTERVAL_MS } from '../shared/protocol';
import { chunksFrom } from './file-chunks';
import { Gathering } from './chunk-gather';
import { loadReaders } from './readers';
import { toWireError } from '../shared/report';

/** The parts of DedicatedWorkerGlobalScope used here (the DOM lib types `self` as Window). */
interface WorkerScope {
  postMessage(message: PartResponse, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<PartRequest>) => void): void;
  addEventListener(type: 'securitypolicyviolation', listener: (e: SecurityPolicyViolationEvent) => void): void;
}
const scope = globalThis as unknown as WorkerScope;

scope.addEventListener('securitypolicyviolation', (e) => {
  scope.postMessage({
    type: 'csp_violation',
    violation: { blockedURI: e.blockedURI, violatedDirective: e.violatedDirective, sourceFile: e.sourceFile },
  });
});

/**
 * Reads `blob` from `start` chunk by chunk into `push` (with the chunk's place in the file; it
 * may transfer the chunk) while `more()` holds, posting the bytes read and `rows()`
 * at most every 100 ms.
 */
async function readFrom(
  id: number,
  blob: Blob,
  start: number,
  push: (chunk: Uint8Array, at: number) => void,
  more: () => boolean,
  rows: () => number,
): Promise<void> {
  if (!more()) return;
  let lastPost = performance.now();
  let at = start;
  for await (const chunk of chunksFrom(blob, start)) {
    const length = chunk.byteLength;
    push(chunk, at);
    at += length;
    if (!more()) break;
    if (performance.now() - lastPost >= PROGRESS_INTERVAL_MS) {
      scope.postMessage({ type: 'progress', id, bytes: at - start, rows: rows() });
      lastPost = performance.now();
    }
  }
}

/** In a reader: its port to the hasher, where the chunks of a gathered part go on. */
let toHasher: MessagePort | null = null;

/** In the hasher: the files being put together, by gathering (deleted when hashed or dropped). */
const gatherings = new Map<number, Gathering>();
/** Gatherings dropped (their late chunks are ignored). */
const forgotten = new Set<number>();

function gatheringOf(gather: number, size: number): Gathering {
  let gathering = gatherings.get(gather);
  if (!gathering) gatherings.set(gather, (gathering = new Gathering(size)));
  return gathering;
}

/** The bytes at the end of a Parquet file that give its footer's length (a u32 and PAR1). */
const PARQUET_TAIL_BYTES = 8;

/** Lower-case hex of a digest. */
function hex(digest: ArrayBuffer): string {
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

function serve(request: Exclude<PartRequest, { type: 'engine' | 'port' | 'forget' }>): Promise<void> {
  const { id } = request;
  switch (request.type) {
    case 'part': {
      const { start, end, exact } = request.span;
      const reader = new TableReader(request.config, request.probe, start, end, exact);
      const { blob, gather } = request;
      reader.expect_file_bytes(blob.size);
      const port = gather === null ? null : toHasher;
      const push = (c: Uint8Array, at: number) => {
        reader.push(c);
        // The chunk's own buffer goes on without a copy (a view into a larger one is copied).
        const own = c.byteOffset === 0 && c.byteLength === c.buffer.byteLength ? c : c.slice();
        port?.postMessage({ gather, size: blob.size, at, bytes: own.buffer } as ChunkCopy, [own.buffer]);
      };
      return readFrom(
        id,
        blob,
        start,
        push,
        () => !reader.done(),
        () => reader.rows(),
      )
        .then(() => {
          const table = reader.finish().buffer as ArrayBuffer;
          scope.postMessage({ type: 'part', id, table }, [table]);
        })
        .finally(() => reader.free());
    }
    case 'cells':
      return Promise.all([request.blob.arrayBuffer(), loadReaders(request.readers)]).then(([buffer, { read_cells }]) => {
        const table = read_cells(request.config, new Uint8Array(buffer), request.format, request.sheet).buffer as ArrayBuffer;
        scope.postMessage({ type: 'part', id, table }, [table]);
      });
    case 'groups': {
      const { blob } = request;
      const tailAt = Math.max(0, blob.size - PARQUET_TAIL_BYTES);
      return loadReaders(request.readers).then(async ({ parquet_footer_len, parquet_groups }) => {
        const tail = new Uint8Array(await blob.slice(tailAt).arrayBuffer());
        const footer = new Uint8Array(await blob.slice(Math.max(0, tailAt - parquet_footer_len(tail))).arrayBuffer());
        scope.postMessage({ type: 'groups', id, footer, groups: Array.from(parquet_groups(footer, blob.size)) }, [footer.buffer]);
      });
    }
    case 'parquet': {
      const { blob, start, end } = request;
      return Promise.all([blob.slice(start, end).arrayBuffer(), loadReaders(request.readers)]).then(([body, { read_parquet_groups }]) => {
        const table = read_parquet_groups(request.config, blob.size, request.footer, start, new Uint8Array(body), request.first, request.count)
          .buffer as ArrayBuffer;
        scope.postMessage({ type: 'part', id, table }, [table]);
      });
    }
    case 'lattice': {
      const stats = attribution_stats(request.lattice);
      scope.postMessage({ type: 'stats', id, stats }, [stats.buffer]);
      return Promise.resolve();
    }
    case 'bootstrap': {
      const replicates = bootstrap_part(request.bootstrap, request.part);
      scope.postMessage({ type: 'replicates', id, replicates }, [replicates.buffer]);
      return Promise.resolve();
    }
    case 'hash': {
      const subtle = globalThis.crypto?.subtle;
      if (subtle && request.gather !== null) {
        const { gather } = request;
        const gathering = gatheringOf(gather, request.blob.size);
        return gathering.complete
          .then(() => {
            gatherings.delete(gather);
            return subtle.digest('SHA-256', gathering.bytes());
          })
          .then((digest) => scope.postMessage({ type: 'hash', id, hex: hex(digest) }));
      }
      if (subtle && hashedInOnePiece(request.blob.size)) {
        return request.blob
          .arrayBuffer()
          .then((bytes) => subtle.digest('SHA-256', bytes))
          .then((digest) => scope.postMessage({ type: 'hash', id, hex: hex(digest) }));
      }
      const hasher = new Hasher();
      return readFrom(
        id,
        request.blob,
        0,
        (c) => hasher.update(c),
        () => true,
        () => 0,
      )
        .then(() => scope.postMessage({ type: 'hash', id, hex: hasher.hex() }))
        .finally(() => hasher.free());
    }
  }
}

/** The engine, instantiated from the module the audit worker compiled and sends first. */
let engine!: (module: WebAssembly.Module) => void;
const ready = new Promise<WebAssembly.Module>((resolve) => (engine = resolve)).then((module) => init({ module_or_path: module }));
scope.addEventListener('message', (e) => {
  const request = e.data;
  // What needs no engine is done at once.
  if (request.type === 'engine') {
    engine(request.module);
    return;
  }
  if (request.type === 'port') {
    if (request.side === 'reader') toHasher = request.port;
    else
      request.port.onmessage = ({ data: chunk }: MessageEvent<ChunkCopy>) => {
        if (!forgotten.has(chunk.gather)) gatheringOf(chunk.gather, chunk.size).put(chunk.at, new Uint8Array(chunk.bytes));
      };
    return;
  }
  if (request.type === 'forget') {
    forgotten.add(request.gather);
    gatherings.get(request.gather)?.drop(new Error('The file was read again on one thread; its parts were not hashed.'));
    gatherings.delete(request.gather);
    return;
  }
  ready
    .then(() => serve(request))
    .catch((error: unknown) => {
      if (error instanceof WebAssembly.RuntimeError) {
        // The engine of this worker is unusable now: say why, and stop taking requests.
        const what =
          request.type === 'cells'
            ? request.format === 'parquet'
              ? 'The Parquet reader'
              : 'The Excel reader'
            : request.type === 'groups' || request.type === 'parquet'
              ? 'The Parquet reader'
              : 'The reader';
        const message = `${what} stopped on this file, which may be corrupt or cut short (${error.message}).`;
        scope.postMessage({ type: 'stopped', id: request.id, error: { kind: 'input', code: 'reader_stopped', message, line: null, column: null } });
        self.close();
        return;
      }
      scope.postMessage({ type: 'failed', id: request.id, error: toWireError(error) });
    });
});
ready.then(
  () => scope.postMessage({ type: 'ready' }),
  (e: unknown) => scope.postMessage({ type: 'engine_failed', error: toWireError(e) }),
);
