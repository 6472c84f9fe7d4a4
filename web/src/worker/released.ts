// The released file as this worker knows it since its profile pass began (its format, the
// sheet of a workbook to read and the sheets it holds, how many times it was read), and how a
// source becomes a Blob and a file's format is told.

import { file_format, sample_csv } from '../../pkg/pseudolens_wasm.js';
import { headOf } from './file-chunks';
import type { CellsFormat } from '../shared/part-protocol';
import { assertNever, type Source } from '../shared/protocol';

export const released: {
  /** The format of the released file, known once its profile pass starts. */
  format: 'csv' | CellsFormat;
  /** The sheet of the released workbook to read (null: the first), and its sheets once read. */
  sheet: string | null;
  sheets: string[];
  /** How many times the released file has been read since the last profile pass began. */
  fileReads: number;
} = { format: 'csv', sheet: null, sheets: [], fileReads: 0 };

/** A new released file (its profile pass): its format and sheet, nothing read yet. */
export async function newRelease(source: Source): Promise<void> {
  released.fileReads = 0;
  released.format = await sourceFormat(source);
  released.sheet = source.kind === 'file' ? (source.sheet ?? null) : null;
  released.sheets = [];
}

/** The sample is read exactly like a file: as a Blob read chunk by chunk. */
export function asBlob(source: Source): Blob {
  switch (source.kind) {
    case 'file':
      return source.file;
    case 'sample':
      return new Blob([sample_csv() as Uint8Array<ArrayBuffer>], { type: 'text/csv' });
    default:
      return assertNever(source);
  }
}

/** The format of a file: from its first bytes and its name (the engine's rule). */
export async function formatOf(blob: Blob, name: string): Promise<'csv' | CellsFormat> {
  const start = (await headOf(blob)).subarray(0, 8);
  return file_format(start, name) as 'csv' | CellsFormat;
}

/** The format of the released file (the sample is CSV). */
const sourceFormat = (source: Source): Promise<'csv' | CellsFormat> =>
  source.kind === 'file' ? formatOf(source.file, source.file.name) : Promise.resolve('csv');
