// The riskiest groups of records, and the record drill-down: a button that has the worker read
// the file once more and hand back the rows of exactly these groups, saved as a CSV file made
// on this computer; and each record's risk (spec README Sec 10, `per_record`) as a CSV file,
// from the table the worker keeps or a second read of the file.

import { el, scrollTable } from '../../ui/dom';
import { explain } from '../../ui/explain';
import { count, score } from '../../ui/format';
import type { ClassValues } from '../../shared/protocol';
import { riskiestClasses, type Report } from '../../shared/report';
import { cellValue, help, missingReason, section } from '../../ui/view-kit';

/** The riskiest classes as the Extract pass wants them: values in QI order, null = missing. */
export function drilldownClasses(report: Report): ClassValues[] {
  const qis = report.params.quasi_identifiers;
  return riskiestClasses(report).map((t) => qis.map((q) => t.values[q] ?? null));
}

export function drilldownView(report: Report, onExtract: (classes: ClassValues[]) => void, onPerRecord: () => void): HTMLElement {
  const qis = report.params.quasi_identifiers;
  const top = riskiestClasses(report);
  const records = top.reduce((a, t) => a + t.size, 0);
  const button = el('button', { id: 'download-records', class: 'button', type: 'button' }, 'Download the records of these groups (CSV)');
  const status = el('p', { class: 'extract-status', id: 'extract-status', role: 'status', 'aria-live': 'polite' });
  button.addEventListener('click', () => {
    status.textContent = 'Reading the file again to collect these records…';
    status.dataset.kind = 'busy';
    onExtract(drilldownClasses(report));
  });
  const perRecord = el('button', { id: 'download-per-record', class: 'button', type: 'button' }, 'Download per-record risks (CSV)');
  const perRecordStatus = el('p', { class: 'extract-status', id: 'per-record-status', role: 'status', 'aria-live': 'polite' });
  perRecord.addEventListener('click', () => {
    perRecordStatus.textContent = 'Collecting each record’s risk…';
    perRecordStatus.dataset.kind = 'busy';
    onPerRecord();
  });
  return section(
    'Riskiest groups',
    'top-title',
    help(explain('record_risk')),
    top.length
      ? scrollTable(
          'Riskiest groups of records',
          [...qis, 'Records in group', 'Risk'],
          top.map((t) => [...qis.map((q) => cellValue(t.values[q])), count(t.size), score(t.risk)]),
          [qis.length, qis.length + 1],
        )
      : el('p', {}, missingReason(report, 'record_risk') ?? 'No groups reported.'),
    top.length
      ? el(
          'div',
          { class: 'drilldown' },
          button,
          help(
            `The ${count(records)} ${records === 1 ? 'record' : 'records'} of ${top.length === 1 ? 'this group' : `these ${count(top.length)} groups`}, with every column and the line they come from, so you can see which rows to coarsen or remove. The file is made on this computer.`,
          ),
          status,
        )
      : null,
    top.length
      ? el(
          'div',
          { class: 'drilldown' },
          perRecord,
          help(
            `One row per record of the file: its ${report.params.record_id ? `record id (${report.params.record_id})` : 'row number'}, the size of its group and its risk (1 / group size)${report.metrics.some((m) => m.id === 'suda_score' && m.status === 'ok') ? ', and its SUDA scores' : ''}. These are record-level values: keep the file to yourself. Made on this computer, from the table kept in memory, or by reading the file a second time when it was not kept.`,
          ),
          perRecordStatus,
        )
      : null,
  );
}

/** Shows how the per-record download went, next to its button. */
export function showPerRecordStatus(text: string, kind: 'busy' | 'done' | 'error'): void {
  const status = document.getElementById('per-record-status');
  if (!status) return;
  status.textContent = text;
  status.dataset.kind = kind;
}

/** Shows how the drill-down went, next to its button. */
export function showExtractStatus(text: string, kind: 'busy' | 'done' | 'error'): void {
  const status = document.getElementById('extract-status');
  if (!status) return;
  status.textContent = text;
  status.dataset.kind = kind;
}
