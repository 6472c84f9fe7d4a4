// The drill-down and the per-record values of the released file: from the kept table, else
// from a streaming read of the file (a Parquet or Excel file is never streamed: without its
// kept table they cannot be listed).

import type { ClassValues, Extracted, Source } from '../shared/protocol';
import type { AuditConfig, WireError } from '../shared/report';
import { withEncoding, withEncodingRetry } from './encoding-retry';
import { engineFor } from './full-engine';
import { keptExtract, keptPerRecord } from './kept-table';
import { asBlob, released } from './released';
import { streamExtract, streamPerRecord } from './streaming';

/** The rows of `classes` in the released file. */
export async function extractRecords(id: number, source: Source, config: AuditConfig, classes: ClassValues[]): Promise<Extracted> {
  const blob = asBlob(source);
  const fromKept = keptExtract(config, classes);
  if (!fromKept && released.format !== 'csv') {
    throw {
      kind: 'input',
      code: 'not_retained',
      message: 'the records of this class cannot be listed: the table was not kept in memory',
      line: null,
      column: null,
    } satisfies WireError;
  }
  return (
    fromKept ??
    (await withEncodingRetry(id, 'table', config.encoding === 'windows-1252', (encoding) => streamExtract(id, blob, withEncoding(config, encoding), classes)))
  );
}

/** Each record's values as CSV, how many records, and whether they came from the kept table. */
export async function perRecordValues(id: number, source: Source, config: AuditConfig): Promise<{ csv: string; records: number; kept: boolean }> {
  const blob = asBlob(source);
  await engineFor(config);
  const fromKept = keptPerRecord(config);
  if (fromKept === null && released.format !== 'csv') {
    throw {
      kind: 'input',
      code: 'not_retained',
      message: 'the per-record values cannot be listed: the table was not kept in memory',
      line: null,
      column: null,
    } satisfies WireError;
  }
  const csv =
    fromKept ??
    (await withEncodingRetry(id, 'table', config.encoding === 'windows-1252', (encoding) => streamPerRecord(id, blob, withEncoding(config, encoding))));
  const lines = csv.split('\n').length - 2; // the header, and the last line end
  return { csv, records: Math.max(lines, 0), kept: fromKept !== null };
}
