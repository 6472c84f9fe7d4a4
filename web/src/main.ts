// The UI thread: wires the page to the audit worker. It never parses data; it posts the File
// (a handle, not a copy) to the worker and renders the Reports that come back.

import 'uplot/dist/uPlot.min.css';
import './style.css';
import { byId } from './dom';
import { count, megabytes, rate } from './format';
import { addMessage, clearMessages, describeError, showMessage } from './messages';
import { renderProfile } from './profile-view';
import { assertNever, type CspViolation, type Pass, type Progress, type Response, type Source } from './protocol';
import type { Encoding, Report } from './report';
import { clearResults, renderResults } from './results-view';
import { WorkerClient } from './worker-client';
import { DEFAULT_THRESHOLD, auditConfig, columnsWithRole, profileConfig, proposedRoles, type AuditChoices } from './roles';

const fileInput = byId<HTMLInputElement>('file-input');
const dropZone = byId('drop-zone');
const sampleButton = byId<HTMLButtonElement>('sample-button');
const progressPanel = byId('progress-panel');
const progressTitle = byId('progress-title');
const progressBar = byId<HTMLProgressElement>('progress-bar');
const progressText = byId('progress-text');
const cancelButton = byId<HTMLButtonElement>('cancel-button');
const statusLine = byId('status');
const messages = byId('messages');
const profilePanel = byId('profile-panel');
const resultsPanel = byId('results-panel');
const engineLine = byId('engine');

interface Job {
  source: Source;
  label: string;
  /** Run the audit with the proposed roles right after profiling (the sample). */
  autoAudit: boolean;
  /** windows-1252 once a pass had to retry, so later passes start with it. */
  encoding: Encoding | null;
  pass: Pass | null;
  announcedQuarter: number;
  report: Report | null;
}

let job: Job | null = null;

const client = new WorkerClient(onWorkerMessage);

function announce(text: string): void {
  statusLine.textContent = text;
}

const PASS_TITLES: Readonly<Record<Pass, string>> = {
  profile: 'Profiling the columns',
  audit: 'Auditing re-identification risk',
};

function showProgress(pass: Pass): void {
  progressTitle.textContent = `${PASS_TITLES[pass]}…`;
  progressBar.value = 0;
  progressBar.max = 1;
  progressText.textContent = 'Starting…';
  progressPanel.hidden = false;
  announce(`${PASS_TITLES[pass]}.`);
}

function hideProgress(): void {
  progressPanel.hidden = true;
}

function updateProgress(p: Progress): void {
  if (!job) return;
  progressBar.max = Math.max(1, p.totalBytes);
  progressBar.value = p.bytes;
  progressText.textContent = `${count(p.rows)} rows · ${megabytes(p.bytes)} of ${megabytes(p.totalBytes)} · ${rate(p.mbPerSec)}`;
  // Screen readers hear a quarter-by-quarter summary, not ten updates a second.
  const quarter = p.totalBytes > 0 ? Math.floor((4 * p.bytes) / p.totalBytes) : 0;
  if (quarter > job.announcedQuarter && quarter < 4) {
    job.announcedQuarter = quarter;
    announce(`${quarter * 25}% read, ${count(p.rows)} rows.`);
  }
}

function startPass(pass: Pass, choices: AuditChoices | null): void {
  if (!job) return;
  job.pass = pass;
  job.announcedQuarter = 0;
  showProgress(pass);
  const config = choices ? auditConfig(choices) : { ...profileConfig(), encoding: job.encoding };
  client.run(pass, job.source, config);
}

function start(source: Source, label: string, autoAudit: boolean): void {
  if (client.busy) client.cancel();
  job = { source, label, autoAudit, encoding: null, pass: null, announcedQuarter: 0, report: null };
  clearMessages(messages);
  profilePanel.hidden = true;
  profilePanel.replaceChildren();
  clearResults(resultsPanel);
  startPass('profile', null);
}

function runAudit(choices: AuditChoices): void {
  if (!job) return;
  clearMessages(messages);
  clearResults(resultsPanel);
  startPass('audit', choices);
}

function onProfile(report: Report): void {
  if (!job) return;
  renderProfile(profilePanel, report, job.label, job.encoding, runAudit);
  profilePanel.hidden = false;
  if (!job.autoAudit) {
    announce('Columns profiled. Check the roles, then run the audit.');
    return;
  }
  const choices: AuditChoices = {
    roles: proposedRoles(report.columns),
    missingPolicy: 'ordinary',
    threshold: DEFAULT_THRESHOLD,
    encoding: job.encoding,
  };
  if (columnsWithRole(choices.roles, 'quasi_identifier').length === 0) {
    showMessage(messages, 'note', 'No column was proposed as a quasi-identifier.', 'Choose the roles below, then run the audit.');
    return;
  }
  runAudit(choices);
}

function onAudit(report: Report): void {
  if (!job) return;
  job.report = report;
  renderResults(resultsPanel, report, job.label, downloadReport);
  announce('Audit finished. Results are below.');
  byId('results-title').setAttribute('tabindex', '-1');
  byId('results-title').focus({ preventScroll: true });
  resultsPanel.scrollIntoView({ block: 'start', behavior: 'auto' });
}

function downloadReport(): void {
  if (!job?.report) return;
  const blob = new Blob([JSON.stringify(job.report, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `pseudolens-report-${job.label.replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_')}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function reportCspViolation(violation: CspViolation): void {
  console.warn('Content-Security-Policy blocked something in the audit worker', violation);
  window.dispatchEvent(new CustomEvent('pseudolens:csp-violation', { detail: violation }));
}

function onWorkerMessage(message: Response): void {
  switch (message.type) {
    case 'progress':
      updateProgress(message.progress);
      break;
    case 'result':
      hideProgress();
      if (message.pass === 'profile') onProfile(message.report);
      else onAudit(message.report);
      break;
    case 'error': {
      hideProgress();
      if (message.error.kind === 'internal') client.restart();
      const { title, detail } = describeError(message.error, job?.label ?? 'The file');
      showMessage(messages, 'error', title, detail);
      announce(title);
      break;
    }
    case 'encoding_retry':
      if (job) job.encoding = message.encoding;
      addMessage(
        messages,
        'note',
        'This file is not UTF-8 text; reading it again as Windows-1252 (Western European).',
        'Accented letters will be read correctly if the file came from an older Windows program or Excel.',
      );
      break;
    case 'csp_violation':
      reportCspViolation(message.violation);
      break;
    case 'ready':
      document.documentElement.dataset.engine = 'ready';
      engineLine.textContent = `Audit engine ${message.version} loaded in this page.`;
      break;
    case 'engine_failed': {
      document.documentElement.dataset.engine = 'failed';
      const { detail } = describeError(message.error, 'The engine');
      showMessage(messages, 'error', 'The audit engine could not be loaded in this browser.', detail);
      break;
    }
    default:
      assertNever(message);
  }
}

// --- inputs ---------------------------------------------------------------------------------

fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (file) start({ kind: 'file', file }, file.name, false);
  fileInput.value = ''; // picking the same file again still fires "change"
});

sampleButton.addEventListener('click', () => start({ kind: 'sample' }, 'Sample (synthetic hospital data)', true));

cancelButton.addEventListener('click', () => {
  client.cancel();
  hideProgress();
  const what = job?.pass === 'audit' ? `The audit of ${job.label}` : `Reading ${job?.label ?? 'the file'}`;
  const again = job?.pass === 'audit' ? 'Press "Run audit" to start it again.' : 'Choose a file or try the sample to start again.';
  showMessage(messages, 'note', 'Cancelled.', `${what} was stopped and nothing was kept. ${again}`);
  announce('Cancelled.');
  if (job) job.pass = null;
});

for (const type of ['dragenter', 'dragover'] as const) {
  dropZone.addEventListener(type, (e) => {
    e.preventDefault();
    dropZone.classList.add('dragging');
  });
}
for (const type of ['dragleave', 'drop'] as const) {
  dropZone.addEventListener(type, () => dropZone.classList.remove('dragging'));
}
dropZone.addEventListener('drop', (e) => {
  e.preventDefault();
  const file = e.dataTransfer?.files[0];
  if (file) start({ kind: 'file', file }, file.name, false);
});
// A file dropped next to the zone must not make the browser navigate away to it.
window.addEventListener('dragover', (e) => e.preventDefault());
window.addEventListener('drop', (e) => e.preventDefault());
