// A file read as the browser's stream of it (`Blob.stream()`), from a byte on. The browser reads
// a file in another process; its stream hands over the bytes as they come, in chunks of its own
// size (up to 2 MiB). In headless Chromium the 102 MB Adult-like table cost 190-280 ms of CPU
// this way, against 370-400 ms in 1 MiB slices (`blob.slice().arrayBuffer()` one after the
// other, the next asked for before the last was used), on a machine where the parallel read is
// short of CPU (docs/decisions/read/browser-file-as-stream.md). Used by the reader workers (their
// parts, the streaming hash) and by the audit worker (side tables, the streamed audit, the
// drill-down of a table not kept).

/** The bytes of `blob` from `start` to its end, chunk by chunk; stopping early cancels the read. */
export async function* chunksFrom(blob: Blob, start: number): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = blob.slice(start).stream().getReader();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      yield value;
    }
  } finally {
    // The caller stopped (a part read past its end, an engine that refused a chunk).
    if (!ended) reader.cancel().catch(() => undefined);
  }
}

/** The most a file's start is read for: its format, then the probe of its dialect and header. */
export const HEAD_BYTES = 1 << 20;

/** The start of the last file asked for, read once for its format and its probe. */
let lastHead: { blob: Blob; head: Promise<Uint8Array> } | null = null;

/** The first `HEAD_BYTES` of `blob` (all of it when shorter): one read of the file's start for
 * its format and its probe, which each waited for a read of their own (5-14 ms each). */
export function headOf(blob: Blob): Promise<Uint8Array> {
  if (lastHead?.blob !== blob)
    lastHead = {
      blob,
      head: blob
        .slice(0, HEAD_BYTES)
        .arrayBuffer()
        .then((b) => new Uint8Array(b)),
    };
  return lastHead.head;
}
