// The shareable variant of a report: the core's `shareable` (only aggregates of at least a
// minimum count of records), made here where the engine is, from the typed report the engine
// holds (`Audited`): at the report's own k right after every audit and recompute, sent with
// its report; at another k when the page asks, from the same held report (the report never
// crosses back into the engine). The two latest reports sent are held.

import type { Audited } from '../../pkg/pseudolens_full.js';
import type { ShareableRequest } from '../shared/protocol';
import { toWireError, type ShareableReport, type ShareableVariant } from '../shared/report';
import { post } from './scope';

/** How many of the latest reports sent stay held: the page shows the latest it received,
 * which may be one behind the latest sent. */
const HELD = 2;

/** The reports sent with their shareable variant, by the id of the message that sent them,
 * oldest first. */
const held = new Map<number, Audited>();

/** The shareable variant of `audited` at its own k, to send with its report in the message
 * `id`; the report stays held for another k (`runShareable`). */
export function shareableOf(id: number, audited: Audited): ShareableVariant {
  held.set(id, audited);
  for (const [old, report] of held) {
    if (held.size <= HELD) break;
    report.free();
    held.delete(old);
  }
  try {
    return { report: audited.shareable(null) as ShareableReport, error: null, held: id };
  } catch (e) {
    return { report: null, error: toWireError(e), held: id };
  }
}

/** The core's report safe to share at another k, from the report held for `request.of`. */
export function runShareable(request: ShareableRequest): void {
  const { id } = request;
  const audited = held.get(request.of);
  if (!audited) {
    const message =
      'The engine no longer holds this report (its worker was restarted, or newer reports replaced it): audit again to share it at another minimum count.';
    post({ type: 'shareable_report', id, report: null, error: { kind: 'internal', code: 'report_not_held', message, line: null, column: null } });
    return;
  }
  try {
    post({ type: 'shareable_report', id, report: audited.shareable(request.min_count) as ShareableReport, error: null });
  } catch (e) {
    post({ type: 'shareable_report', id, report: null, error: toWireError(e) });
  }
}
