// A file read in 1 MiB slices, the next one asked for before the one at hand is handed on: the
// browser reads a file in another process, so the wait for a slice (a third of a reader
// worker's time on the 1M-row Adult-like table when it waited between pushes,
// docs/decisions.md "The page's drop-to-first-report") overlaps the engine's work on the last
// one. Used by the reader workers (their parts, the streaming hash) and by the audit worker
// (side tables, the streamed audit, the drill-down of a table not kept).

import { CHUNK_BYTES } from '../shared/protocol';

/**
 * The bytes of `blob` from `start` to its end, slice by slice; at most one slice past the
 * point where the caller stops is read for nothing.
 */
export async function* slicesAhead(blob: Blob, start: number): AsyncGenerator<Uint8Array, void, undefined> {
  const read = (at: number) => blob.slice(at, Math.min(at + CHUNK_BYTES, blob.size)).arrayBuffer();
  let at = start;
  let next = at < blob.size ? read(at) : null;
  try {
    while (next) {
      const chunk = new Uint8Array(await next);
      at += chunk.byteLength;
      next = at < blob.size ? read(at) : null;
      yield chunk;
    }
  } finally {
    // The slice read ahead and not used (the caller stopped, or its engine refused a chunk).
    next?.catch(() => undefined);
  }
}
