// A file read as the browser's stream of it (`Blob.stream()`), from a byte on. The browser reads
// a file in another process; its stream hands over the bytes as they come, in chunks of its own
// size (up to 2 MiB). In headless Chromium the 102 MB Adult-like table cost 190-280 ms of CPU
// this way, against 370-400 ms in 1 MiB slices (`blob.slice().arrayBuffer()` one after the
// other, the next asked for before the last was used), on a machine where the parallel read is
// short of CPU (docs/decisions.md "The file read as a stream"). Used by the reader workers (their
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
