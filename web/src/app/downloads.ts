// The downloads of a shown report: the JSON and HTML reports (full, or the core's shareable
// variant), the settings file, the records of the riskiest groups and each record's risk as
// CSV; with the handlers a rendered report calls for them.

import { showExtractStatus, showPerRecordStatus } from '../results/drilldown/drilldown-view';
import { clearResults, renderResults, type ResultHandlers } from '../results/results-view';
import { htmlReport, pageCss, snapshotResults, type Disclosure } from '../export/report-html';
import type { ReportVariant } from '../results/report-variant';
import { settingsFileText } from '../setup/settings-share';
import type { Extracted } from '../shared/protocol';
import { removedCount, type AuditConfig, type Report, type ShareableReport, type ShareableVariant, type WireError } from '../shared/report';
import { el } from '../ui/dom';
import { fileStem, saveText } from '../ui/download';
import { count } from '../ui/format';
import { showMessage } from '../ui/messages';
import { messages, resultsPanel } from './elements';
import { protectEngine } from './protect';
import { client, engine } from './engine';
import { job, sourceSize } from './job';
import { runExtract, runPerRecord } from './passes';
import { announce } from './progress';

export function onExtracted(extracted: Extracted): void {
  if (!job) return;
  saveText(extracted.csv, 'text/csv', `pseudolens-records-${fileStem(job.label)}.csv`);
  const what = `${count(extracted.rows)} ${extracted.rows === 1 ? 'record' : 'records'}`;
  const text = extracted.truncated ? `Saved the first ${what}; the rest were left out to keep the file manageable.` : `Saved ${what} as a CSV file.`;
  showExtractStatus(text, 'done');
  announce(text);
}

export function onPerRecord(csv: string, records: number, kept: boolean): void {
  if (!job) return;
  saveText(csv, 'text/csv', `pseudolens-per-record-${fileStem(job.label)}.csv`);
  const how = kept ? 'from the table kept in memory' : 'by reading the file a second time (it was not kept in memory)';
  const text = `Saved the risks of ${count(records)} ${records === 1 ? 'record' : 'records'} as a CSV file, ${how}. They are record-level values: keep the file to yourself.`;
  showPerRecordStatus(text, 'done');
  announce(text);
}

/** The core's shareable variant of the shown report at `minCount` (null: the report's k): the
 * one the worker sent with the report when it is at that k, else made now by the worker from
 * the report it holds. */
function shareableAt(own: ShareableVariant, minCount: number | null): Promise<ShareableReport> {
  if (own.report && (minCount === null || minCount === own.report.shareable.min_count)) return Promise.resolve(own.report);
  if (own.error && minCount === null) return Promise.reject(own.error);
  return client.shareable(own.held, minCount);
}

/** The report of the variant chosen: the full one, or the core's shareable one. */
async function variantReport(variant: ReportVariant): Promise<{ report: Report; disclosure: Disclosure } | null> {
  if (!job?.report || !job.shareable) return null;
  const full = job.report;
  const at = await shareableAt(job.shareable, variant.shareable ? variant.minCount : null);
  const disclosure = { shareable: variant.shareable, minCount: at.shareable.min_count, removed: removedCount(at) };
  return { report: variant.shareable ? at : full, disclosure };
}

function downloadReport(variant: ReportVariant): void {
  if (!job?.report) return;
  const stem = `pseudolens-report-${fileStem(job.label)}${variant.shareable ? '-shareable' : ''}`;
  if (!variant.shareable) return saveText(JSON.stringify(job.report, null, 2), 'application/json', `${stem}.json`);
  if (!job.shareable) return;
  void shareableAt(job.shareable, variant.minCount).then(
    (safe) => saveText(JSON.stringify(safe, null, 2), 'application/json', `${stem}.json`),
    (e: WireError) => showMessage(messages, 'error', 'The shareable report could not be made.', e.message),
  );
}

/**
 * The results of `report` as the page would show them, drawn out of sight beside the results
 * panel (charts measure their box) and turned into static HTML.
 */
async function snapshotOf(report: Report): Promise<string> {
  const box = el('section', { class: 'panel', inert: true, 'aria-hidden': 'true' });
  box.style.cssText = `position: absolute; left: -20000px; top: 0; width: ${resultsPanel.getBoundingClientRect().width}px`;
  resultsPanel.after(box);
  try {
    renderResults(box, report, job?.label ?? '', { ...resultHandlers(report, null), choose: undefined });
    return await snapshotResults(box);
  } finally {
    clearResults(box);
    box.remove();
  }
}

/** The whole audit as one HTML file: the verdict, the results, metrics and charts, the release
 * written in the page if any, then the inputs with their hashes and the settings; the full
 * report or the shareable one. */
async function downloadHtmlReport(variant: ReportVariant): Promise<void> {
  if (!job?.report) return;
  const current = job;
  let chosen: Awaited<ReturnType<typeof variantReport>>;
  try {
    chosen = await variantReport(variant);
  } catch (e) {
    showMessage(messages, 'error', 'The shareable report could not be made.', (e as WireError).message);
    return;
  }
  if (!chosen || job !== current) return;
  const html = htmlReport({
    report: chosen.report,
    disclosure: chosen.disclosure,
    inputs: {
      released: current.label,
      original: current.original?.name ?? null,
      reference: current.reference?.name ?? null,
      sizes: { released: sourceSize(current.source), original: current.original?.size ?? null, reference: current.reference?.size ?? null },
    },
    resultsHtml: variant.shareable ? await snapshotOf(chosen.report) : await snapshotResults(resultsPanel),
    css: pageCss(),
    protection: current.protection,
    version: engine.version,
    generatedAt: new Date(),
  });
  saveText(html, 'text/html', `pseudolens-report-${fileStem(current.label)}${variant.shareable ? '-shareable' : ''}.html`);
}

/** The handlers of a rendered report (`shareable` null: no choice of variant, as in the
 * shareable HTML report's own rendering). */
export function resultHandlers(report: Report, shareable: ShareableVariant | null): ResultHandlers {
  return {
    size: job ? sourceSize(job.source) : null,
    onDownload: downloadReport,
    onDownloadHtml: (variant) => void downloadHtmlReport(variant),
    onExtract: runExtract,
    onPerRecord: runPerRecord,
    utility: { original: job?.original?.name ?? null, recordId: job?.config?.record_id ?? null },
    choose: (candidates, params) => client.choose(report.params.quasi_identifiers, candidates, params),
    // Offered on the page's own rendering only, never in a report's snapshot.
    protect: shareable && job?.config ? protectEngine(job.config) : null,
    shareable,
    onDownloadSettings: shareable ? downloadSettings : null,
  };
}

/** The settings file: the configuration's keys, as the engine echoes them in a report. */
function downloadSettings(config: AuditConfig): void {
  saveText(settingsFileText(config), 'application/json', `pseudolens-settings-${fileStem(job?.label ?? 'audit')}.json`);
  announce('Settings file saved.');
}
