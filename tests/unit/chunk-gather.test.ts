// The hasher's putting together of the file from the readers' chunks (web/src/worker/chunk-gather.ts):
// whole exactly when every byte has come, whatever the order, overlaps and repeats, and the
// bytes are the file's.
import { describe, expect, it } from 'vitest';
import { Gathering } from '../../web/src/worker/chunk-gather';

/** A file of `size` bytes and its chunks [at, end) in the given order. */
function gather(size: number, chunks: [number, number][]): { g: Gathering; file: Uint8Array; wholeAfter: number | null } {
  const file = Uint8Array.from({ length: size }, (_, i) => (i * 7 + 3) & 255);
  const g = new Gathering(size);
  let wholeAfter: number | null = g.whole() ? 0 : null;
  chunks.forEach(([at, end], i) => {
    g.put(at, file.slice(at, end));
    if (wholeAfter === null && g.whole()) wholeAfter = i + 1;
  });
  return { g, file, wholeAfter };
}

describe('Gathering', () => {
  it('is whole after the last missing chunk, not before', () => {
    // Two parts read side by side, the second past its end to EOF; chunks interleaved.
    const { g, file, wholeAfter } = gather(100, [
      [50, 60],
      [0, 30],
      [60, 100],
      [30, 50],
    ]);
    expect(wholeAfter).toBe(4);
    expect(g.bytes()).toEqual(file);
  });

  it('counts overlaps once: a part read past its end, a part read again', () => {
    const { g, file, wholeAfter } = gather(100, [
      [0, 40],
      [30, 70],
      [30, 70],
      [69, 99],
    ]);
    expect(wholeAfter).toBeNull();
    g.put(99, file.slice(99, 100));
    expect(g.whole()).toBe(true);
    expect(g.bytes()).toEqual(file);
  });

  it('is not whole with a gap, even when the ends are covered', () => {
    const { wholeAfter } = gather(10, [
      [0, 4],
      [5, 10],
    ]);
    expect(wholeAfter).toBeNull();
  });

  it('an empty file is whole at once', () => {
    expect(new Gathering(0).whole()).toBe(true);
  });

  it('any order of any chunking gives the file', () => {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let round = 0; round < 200; round++) {
      const size = 1 + (next() % 300);
      const cuts = [0];
      while (cuts[cuts.length - 1]! < size) cuts.push(Math.min(size, cuts[cuts.length - 1]! + 1 + (next() % 40)));
      const chunks = cuts.slice(1).map((end, i) => [cuts[i]!, end] as [number, number]);
      const shuffled = chunks
        .map((c) => [next(), c] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, c]) => c);
      const { g, file, wholeAfter } = gather(size, shuffled);
      expect(wholeAfter).toBe(shuffled.length);
      expect(g.bytes()).toEqual(file);
    }
  });

  it('its promise settles once whole, and fails when dropped', async () => {
    const { g, file } = gather(10, [
      [4, 10],
      [0, 4],
    ]);
    await expect(g.complete).resolves.toBeUndefined();
    expect(g.bytes()).toEqual(file);
    const dropped = new Gathering(10);
    dropped.put(0, file.slice(0, 5));
    dropped.drop(new Error('read on one thread'));
    await expect(dropped.complete).rejects.toThrow('read on one thread');
    await expect(new Gathering(0).complete).resolves.toBeUndefined();
    expect(new Gathering(0).bytes()).toEqual(new Uint8Array(0));
  });
});
