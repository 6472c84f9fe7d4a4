// The streaming fallback: when the released file is not kept (it could not be read in parts,
// or a column these settings need was not kept), the audit, the drill-down and the per-record
// values read it again, chunk by chunk, into the engine's streaming `Audit` and `Extract`.

import type { Audited } from '../../pkg/pseudolens_full.js';
import type { ClassValues, Extracted } from '../shared/protocol';
import type { AuditConfig } from '../shared/report';
import { wasm } from './which-engine';
import type { Sides } from './side-tables';
import { stream } from './stream-read';

/** The streaming audit: the file read once more, chunk by chunk; its report held in the engine. */
export async function streamAudit(id: number, blob: Blob, config: AuditConfig, sides: Sides): Promise<Audited> {
  const audit = new (wasm().Audit)(config);
  try {
    if (sides.original) audit.set_original(sides.original); // before the first push
    if (sides.control) audit.set_control(sides.control);
    await stream(id, blob, 'table', audit);
    if (sides.population) audit.set_population(sides.population);
    return audit.finish();
  } finally {
    audit.free(); // finish() empties the audit but leaves its handle to be freed
  }
}

/** The drill-down from a read of the file: the rows of `classes`. */
export async function streamExtract(id: number, blob: Blob, config: AuditConfig, classes: ClassValues[]): Promise<Extracted> {
  const extract = new (wasm().Extract)(config, classes);
  try {
    await stream(id, blob, 'table', extract);
    return extract.finish() as Extracted;
  } finally {
    extract.free();
  }
}

/** The per-record CSV from a second read of the file. */
export async function streamPerRecord(id: number, blob: Blob, config: AuditConfig): Promise<string> {
  const audit = wasm().Audit.for_records(config);
  try {
    await stream(id, blob, 'table', audit);
    return audit.finish_per_record();
  } finally {
    audit.free();
  }
}
