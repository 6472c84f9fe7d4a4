// The audit of the released file: of the kept table (read now, in parallel, when it may be
// and is not kept yet), else a streaming read of the file; with its side tables, the encoding
// the engine settles on, the engine's progress, and how the table was read.

import type { Audited } from '../../pkg/pseudolens_full.js';
import type { Target, TableRead } from '../shared/protocol';
import { toWireError, type AuditConfig } from '../shared/report';
import { withEncoding, withEncodingRetry } from './encoding-retry';
import { engineFor } from './full-engine';
import { auditKept, forgetKept, keep, kept, withHash } from './kept-table';
import { withAuditProgress } from './progress';
import { released } from './released';
import { giveSides, sidesFor, type Sides } from './side-tables';
import { streamAudit } from './streaming';

/** Why the file is streamed when it could not be read in parts. */
const NOT_IN_PARTS = 'the file could not be read in parts (UTF-16 text, a header that was not found, or a problem in the file)';

/** Why the released file is not kept (null: it is, or it has not been read yet). */
let notKept: string | null = null;

/** A new released file: whether it can be kept is not known yet. */
export function forgetWhyNotKept(): void {
  notKept = null;
}

/** Whether the released file was found not to be keepable (it is streamed at every audit). */
export const foundNotKeepable = (): boolean => notKept !== null;

/**
 * The report of `config` on the released file, held in the engine: an audit of the kept table
 * (read now, in parallel, when `mayRead` and it is not kept yet), else a streaming read of the
 * file.
 */
async function auditTable(
  id: number,
  blob: Blob,
  config: AuditConfig,
  sides: Sides,
  mayRead: boolean,
  hashed: boolean,
): Promise<{ audited: Audited; read: Omit<TableRead, 'seconds' | 'fileReads' | 'sheets'> }> {
  if (kept && kept.ragged !== config.ragged && released.format === 'csv') forgetKept();
  if (!kept && (mayRead || released.format !== 'csv') && notKept === null && !(await keep(id, blob, config))) notKept = NOT_IN_PARTS;
  let why = notKept ?? 'the table was not kept in this worker';
  // The hash may still be under way (it starts once the profile is drawn): the audit runs
  // beside it, and the report takes it once both are done.
  const hash = kept && hashed ? kept.hashed() : null;
  if (kept) {
    const table = kept.table;
    const readers = kept.readers;
    giveSides(table, sides);
    try {
      return { audited: await withHash(await auditKept(table, config), hash), read: { kept: true, why: null, readers } };
    } catch (e) {
      const error = toWireError(e);
      if (error.code !== 'not_retained') throw e;
      why = error.message;
    }
    if (released.format !== 'csv') {
      // Not streamed: read again, keeping every value of the columns these roles need.
      await keep(id, blob, config);
      const again = kept!.table;
      giveSides(again, sides);
      return { audited: await auditKept(again, config), read: { kept: true, why: null, readers: 1 } };
    }
  }
  return { audited: await streamAudit(id, blob, config, sides), read: { kept: false, why, readers: 1 } };
}

/**
 * Audits the released file `blob` against the side tables, with the encoding the engine
 * settles on; `mayRead`: the file may be read in parallel to keep its table; `hashed`: the
 * report needs the file's SHA-256 (every report but the profile's). Returns the report, held
 * in the engine (the caller frees it or keeps it for its shareable variants), with how it was
 * read and how long it took.
 */
export async function auditRelease(
  id: number,
  blob: Blob,
  config: AuditConfig,
  original: File | null,
  reference: File | null,
  control: File | null,
  mayRead: boolean,
  hashed: boolean,
  onTarget: (t: Target) => void,
): Promise<{ audited: Audited; read: TableRead }> {
  const started = performance.now();
  await engineFor(config, { original, control });
  const { audited, read } = await withAuditProgress(id, () =>
    withEncodingRetry(id, 'table', config.encoding === 'windows-1252', async (encoding) => {
      // Read as windows-1252 after all: the parts may have failed for the encoding alone.
      if (encoding !== (config.encoding ?? null)) notKept = null;
      const sides = await sidesFor(id, config, original, reference, control, onTarget);
      return auditTable(id, blob, withEncoding(config, encoding), sides, mayRead, hashed);
    }),
  );
  return { audited, read: { ...read, fileReads: released.fileReads, seconds: (performance.now() - started) / 1000, sheets: released.sheets } };
}
