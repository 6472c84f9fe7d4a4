// The shareable variant of a report: the core's `shareable` (only aggregates of at least a
// minimum count of records), made here where the engine is; no file is read, nothing is kept.

import { shareable } from '../../pkg/pseudolens_wasm.js';
import type { ShareableRequest } from '../shared/protocol';
import { toWireError, type ShareableReport } from '../shared/report';
import { loadWasm } from './engine';
import { post } from './scope';

/** The core's report safe to share: no file is read, nothing is kept. */
export async function runShareable(request: ShareableRequest): Promise<void> {
  const { id } = request;
  try {
    await loadWasm();
    const report = shareable(request.report, request.min_count) as ShareableReport;
    post({ type: 'shareable_report', id, report, error: null });
  } catch (e) {
    post({ type: 'shareable_report', id, report: null, error: toWireError(e) });
  }
}
