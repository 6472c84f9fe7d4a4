// A file read chunk by chunk (the browser's stream of it, file-chunks.ts) into something that
// absorbs it: the streaming audit, a side table's reader, the drill-down; with its progress
// posted at most every 100 ms.

import type { Target } from '../shared/protocol';
import { chunksFrom } from './file-chunks';
import { progressPoster } from './progress';
import { released } from './released';

/** Something that absorbs a file chunk by chunk: Audit, Reference, Original or Extract. */
export interface Sink {
  push(chunk: Uint8Array): void;
  rows?(): number;
}

/** Reads `blob` chunk by chunk into `sink`, posting progress at most every 100 ms. */
export async function stream(id: number, blob: Blob, target: Target, sink: Sink): Promise<void> {
  const post = progressPoster(id, blob, target);
  const rows = () => (sink.rows ? sink.rows() : null);
  if (target === 'table') released.fileReads += 1;
  post(0, rows(), true);
  let end = 0;
  for await (const chunk of chunksFrom(blob, 0)) {
    sink.push(chunk);
    end += chunk.byteLength;
    post(end, rows());
  }
  post(blob.size, rows(), true);
}
