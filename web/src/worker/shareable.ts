// The shareable variant of a report: the core's `shareable` (only aggregates of at least a
// minimum count of records), made here where the engine is: at the report's own k right after
// every audit and recompute, sent with its report; at another k when the page asks. No file is
// read, nothing is kept.

import { shareable } from '../../pkg/pseudolens_wasm.js';
import type { ShareableRequest } from '../shared/protocol';
import { toWireError, type Report, type ShareableReport, type ShareableVariant } from '../shared/report';
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

/** The shareable variant of an audit's `report` at its own k, to send with it. */
export function shareableOf(report: Report): ShareableVariant {
  try {
    return { report: shareable(report, null) as ShareableReport, error: null };
  } catch (e) {
    return { report: null, error: toWireError(e) };
  }
}
