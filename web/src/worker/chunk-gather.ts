// The file put together in the hasher from the chunks the reader workers pushed (issue 12): a
// file hashed in one piece by Web Crypto is then read from disk once, by the readers, instead of
// once more by the hasher beside them (which took a core's worth of the browser's file reading
// and copying during the parallel read). Chunks come from several readers in any order and may
// overlap (a part reads past its end to finish its last record, a part read again after a wrong
// guess of its start); the file is whole when the bytes covered are [0, size).

/** One file being put together: its bytes and the ranges of them that have come. */
export class Gathering {
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** The bytes once every one has come; rejected when the gathering is dropped. */
  readonly complete: Promise<Uint8Array<ArrayBuffer>>;
  /** Disjoint, sorted, non-touching ranges [start, end) of the bytes that have come. */
  private covered: [number, number][] = [];
  private settle!: { resolve: (bytes: Uint8Array<ArrayBuffer>) => void; reject: (e: Error) => void };

  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.complete = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.complete.catch(() => undefined); // dropped before anyone waited: not an error
    if (this.whole()) this.settle.resolve(this.bytes);
  }

  /** Copies `chunk` to its place `at`. */
  put(at: number, chunk: Uint8Array): void {
    this.bytes.set(chunk, at);
    let [start, end] = [at, at + chunk.byteLength];
    const kept: [number, number][] = [];
    for (const range of this.covered) {
      if (range[1] < start || range[0] > end) kept.push(range);
      else [start, end] = [Math.min(start, range[0]), Math.max(end, range[1])];
    }
    kept.push([start, end]);
    this.covered = kept.sort((a, b) => a[0] - b[0]);
    if (this.whole()) this.settle.resolve(this.bytes);
  }

  /** Every byte has come. */
  whole(): boolean {
    const size = this.bytes.byteLength;
    return size === 0 || (this.covered.length === 1 && this.covered[0]![0] === 0 && this.covered[0]![1] === size);
  }

  /** The gathering will not be completed: whoever waits for it gets `reason`. */
  drop(reason: Error): void {
    this.settle.reject(reason);
  }
}
