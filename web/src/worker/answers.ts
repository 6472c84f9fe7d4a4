// The requests answered beside the runs, which read no released file: the core's choice
// among audited candidates, and the column names of a side table as the core reads its
// header.

import { choose } from '../../pkg/pseudolens_wasm.js';
import type { ChooseRequest, HeaderRequest } from '../shared/protocol';
import { toWireError, type MetricResult } from '../shared/report';
import { loadWasm } from './engine';
import { probeStart } from './parallel-read';
import { post } from './scope';

/** The core's choice among audited candidates: no file is read, nothing is kept. */
export async function runChoose(request: ChooseRequest): Promise<void> {
  const { id } = request;
  try {
    await loadWasm();
    const metrics = choose(request.quasi_identifiers, request.candidates, request.params) as MetricResult[];
    post({ type: 'choice', id, metrics, error: null });
  } catch (e) {
    post({ type: 'choice', id, metrics: null, error: toWireError(e) });
  }
}

/** The column names of a side table, read by the core as it will read them in the audit. */
export async function runHeader(request: HeaderRequest): Promise<void> {
  let header: string[] | null = null;
  try {
    await loadWasm();
    header = (await probeStart(request.file, { quasi_identifiers: [] }))?.header ?? null;
  } catch {
    // Not readable as a table: the audit will say why when it reads the file.
  }
  post({ type: 'header', id: request.id, header });
}
