// An audit's report shown: the first audit's (if the settings did not change meanwhile) and
// each recompute's, checked first against the sizes of the files read (nothing is shown of a
// file not read whole).

import { renderResults } from '../results/results-view';
import type { TableRead } from '../shared/protocol';
import type { Report, ShareableVariant } from '../shared/report';
import { sizeMismatch } from '../ui/account';
import { byId } from '../ui/dom';
import { clearMessages, removeErrors, showMessage } from '../ui/messages';
import { messages, resultsPanel } from './elements';
import { resultHandlers } from './downloads';
import { job, sourceSize } from './job';
import { announce } from './progress';
import { freshness } from './recompute';

/** The bytes read are not the file's size: nothing that was read is shown. */
export function showSizeMismatch(why: string): void {
  showMessage(messages, 'error', 'The file was not read whole.', why);
  announce('The file was not read whole.');
}

/** The first audit's report: shown if the settings did not change meanwhile, else recomputed. */
export function onAudit(report: Report, read: TableRead, shareable: ShareableVariant): void {
  if (!freshness.current) return freshness.again();
  if (!showAudit(report, shareable)) return;
  freshness.shown(read, false);
  announce('Audit finished. Results are below.');
  byId('results-title').setAttribute('tabindex', '-1');
  byId('results-title').focus({ preventScroll: true });
  resultsPanel.scrollIntoView({ block: 'start', behavior: 'auto' });
}

/** A recompute's report: shown only if it answers the settings as they stand. */
export function onRecomputed(report: Report, read: TableRead, shareable: ShareableVariant): void {
  if (!freshness.current) return;
  clearMessages(messages); // a failed recompute's error, or notes of an earlier audit
  if (!showAudit(report, shareable)) return;
  freshness.shown(read, true);
  announce('Results recomputed for the new settings.');
}

/** Renders an audit's report with its shareable variant at the report's own k (false when its
 * account of bytes does not match the files). */
function showAudit(report: Report, shareable: ShareableVariant): boolean {
  if (!job) return false;
  const size = sourceSize(job.source);
  const side = (facts: Report['original_input'], file: File | null) => (facts && file ? sizeMismatch(facts, file.size, file.name) : null);
  const wrong = sizeMismatch(report.input, size, job.label) ?? side(report.original_input, job.original) ?? side(report.reference_input, job.reference);
  if (wrong) {
    showSizeMismatch(wrong);
    return false;
  }
  job.report = report;
  removeErrors(messages); // an error of an earlier attempt no longer describes what is shown
  // What the full report holds: the core's shareable variant at the report's own k.
  job.shareable = shareable;
  // The release of an earlier report was written with its settings: not this one's.
  job.protection = null;
  renderResults(resultsPanel, report, job.label, resultHandlers(report, job.shareable));
  return true;
}
