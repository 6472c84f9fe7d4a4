// The profile pass answered: step 2 drawn from the file's columns (for one release, or for
// candidates to compare), how the file was read and its sheets, the file's SHA-256 when it
// comes after the profile; then what comes next: the settings waiting for this file, the
// sample's audit, or the user's choice of roles.

import { renderProfile } from '../setup/profile-view';
import { columnsWithRole, defaultChoices, proposedRoles } from '../setup/roles';
import { sheetChoice } from '../setup/sheet-choice';
import type { TableRead } from '../shared/protocol';
import type { Report } from '../shared/report';
import { sizeMismatch } from '../ui/account';
import { el } from '../ui/dom';
import { showMessage } from '../ui/messages';
import { showSizeMismatch } from './audit-results';
import { compareMode, runCompare } from './compare';
import { syntheticMode } from './synthetic';
import { messages, profilePanel } from './elements';
import { client } from './engine';
import { CHOICE_PAUSE_MS, profileReadText } from './freshness';
import { intake, runWaitingSettings } from './intake';
import { hashPending, job, sourceSize } from './job';
import { runAudit, start } from './passes';
import { announce } from './progress';
import { freshness } from './recompute';

/** The SHA-256 of the file being profiled (null: not computed), before or after its profile. */
export function onFileHash(sha256: string | null): void {
  if (!job) return;
  const waiting = hashPending(job) ? job.profile : null;
  job.fileHash = sha256;
  if (!waiting) return;
  waiting.input.sha256 = sha256;
  const ready = intake.profiled();
  if (ready !== null) runWaitingSettings(ready);
}

export function onProfile(report: Report, tableRead: TableRead): void {
  if (!job) return;
  const size = sourceSize(job.source);
  const wrong = sizeMismatch(report.input, size, job.label);
  if (wrong) return showSizeMismatch(wrong);
  const read = { encoding: job.encoding, size, lenient: job.lenient };
  const readHeader = (file: File) => client.header(file);
  if (job.candidates) renderProfile(profilePanel, report, job.label, read, runCompare, readHeader, compareMode(job.candidates));
  else
    job.form = renderProfile(profilePanel, report, job.label, read, runAudit, readHeader, job.synthetic ? syntheticMode() : null, (chosen) =>
      freshness.changed(chosen ? CHOICE_PAUSE_MS : undefined),
    );
  profilePanel.querySelector('.lead')?.after(el('p', { class: 'note', id: 'read-note', 'data-kept': String(tableRead.kept) }, profileReadText(tableRead)));
  const source = job.source;
  if (source.kind === 'file' && tableRead.sheets.length > 1 && !job.candidates) {
    const label = job.label;
    const choose = (sheet: string) => start({ kind: 'file', file: source.file, sheet }, label, false);
    profilePanel.querySelector('#read-note')?.after(sheetChoice(tableRead.sheets, report.input.sheet, choose));
  }
  profilePanel.hidden = false;
  // Once the profile is drawn, the worker may start what it put off (the file's hash).
  requestAnimationFrame(() => setTimeout(() => client.shown()));
  job.profile = report;
  if (report.input.sha256 === null && job.fileHash !== undefined) report.input.sha256 = job.fileHash;
  // Settings from a link or a settings file waiting for this file.
  const ready = intake.profiled();
  if (ready !== null) return runWaitingSettings(ready);
  if (!job.autoAudit) {
    announce('Columns profiled. Check the roles, then run the audit.');
    return;
  }
  const choices = defaultChoices(proposedRoles(report.columns), job.encoding);
  if (columnsWithRole(choices.roles, 'quasi_identifier').length === 0) {
    showMessage(messages, 'note', 'No column was proposed as a quasi-identifier.', 'Choose the roles below, then run the audit.');
    return;
  }
  runAudit(choices);
}
