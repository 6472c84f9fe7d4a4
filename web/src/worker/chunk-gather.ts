// The file put together in the hasher from the chunks the reader workers pushed (issue 12): a
// file hashed in one piece by Web Crypto is then read from disk once, by the readers, instead of
// once more by the hasher beside them (which took a core's worth of the browser's file reading
// and copying during the parallel read). Chunks come from several readers in any order and may
// overlap (a part reads past its end to finish its last record, a part read again after a wrong
// guess of its start); the file is whole when the bytes covered are [0, size).

/** One file being put together: the chunks that have come and the ranges of it they cover. */
export class Gathering {
  readonly size: number;
  /** Settles once every byte has come; rejected when the gathering is dropped. */
  readonly complete: Promise<void>;
  /** The chunks as they came (copied into one buffer only by `bytes()`: the readers' chunks
   * come during the parallel read, when a copy would take a core from them). */
  private chunks: { at: number; chunk: Uint8Array }[] = [];
  /** Disjoint, sorted, non-touching ranges [start, end) of the bytes that have come. */
  private covered: [number, number][] = [];
  private settle!: { resolve: () => void; reject: (e: Error) => void };

  constructor(size: number) {
    this.size = size;
    this.complete = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.complete.catch(() => undefined); // dropped before anyone waited: not an error
    if (this.whole()) this.settle.resolve();
  }

  /** Keeps `chunk`, which starts at byte `at` (not copied: the caller gives it up). */
  put(at: number, chunk: Uint8Array): void {
    this.chunks.push({ at, chunk });
    let [start, end] = [at, at + chunk.byteLength];
    const kept: [number, number][] = [];
    for (const range of this.covered) {
      if (range[1] < start || range[0] > end) kept.push(range);
      else [start, end] = [Math.min(start, range[0]), Math.max(end, range[1])];
    }
    kept.push([start, end]);
    this.covered = kept.sort((a, b) => a[0] - b[0]);
    if (this.whole()) this.settle.resolve();
  }

  /** Every byte has come. */
  whole(): boolean {
    return this.size === 0 || (this.covered.length === 1 && this.covered[0]![0] === 0 && this.covered[0]![1] === this.size);
  }

  /** The file's bytes in one buffer (once whole); the chunks are let go. */
  bytes(): Uint8Array<ArrayBuffer> {
    const bytes = new Uint8Array(this.size);
    for (const { at, chunk } of this.chunks) bytes.set(chunk, at);
    this.chunks = [];
    return bytes;
  }

  /** The gathering will not be completed: whoever waits for it gets `reason`. */
  drop(reason: Error): void {
    this.chunks = [];
    this.settle.reject(reason);
  }
}
