// Comparing candidate releases: step 2's wording for them, every candidate audited with the
// same roles and settings, the progress of each, and the comparison shown with its downloads.

import { comparisonHtmlReport, pageCss, snapshotResults } from '../export/report-html';
import { renderCandidates } from '../results/balance/candidates-view';
import type { ProfileMode } from '../setup/profile-view';
import type { AuditChoices } from '../setup/roles';
import type { Report } from '../shared/report';
import { sizeMismatch } from '../ui/account';
import { byId } from '../ui/dom';
import { saveText } from '../ui/download';
import { clearMessages, removeErrors } from '../ui/messages';
import { showSizeMismatch } from './audit-results';
import { messages, resultsPanel } from './elements';
import { client, engine } from './engine';
import { configOf, job } from './job';
import { clearPanel } from './passes';
import { announce, setProgressTitle, showProgress } from './progress';

/** Step 2 when comparing candidates: the original is required, the button says so. */
export function compareMode(candidates: File[]): ProfileMode {
  return {
    runLabel: 'Compare candidates',
    intro: `Comparing ${candidates.length} candidate releases: ${candidates.map((f) => f.name).join(', ')}. The roles and settings below apply to every one; give their original table below (required), and a population table to measure linkage risk.`,
    check: (c) => (c.original ? null : 'Comparing candidates needs the original table: choose it under “Utility: compare with the original table”.'),
  };
}

/** Audits every candidate with the same roles and settings, then shows the comparison. */
export function runCompare(choices: AuditChoices): void {
  if (!job?.candidates) return;
  clearMessages(messages);
  clearPanel();
  job.pass = 'compare';
  job.announcedQuarter = 0;
  job.choices = choices;
  job.config = configOf(job, choices);
  job.reference = choices.reference;
  job.original = choices.original;
  showProgress('compare');
  job.control = choices.control;
  client.compare(job.candidates, job.config, choices.reference, choices.original, job.control);
}

export function onCandidate(index: number, total: number, name: string): void {
  if (!job) return;
  job.candidateTitle = `Auditing candidate ${index + 1} of ${total} (${name})`;
  job.candidateName = name;
  job.announcedQuarter = 0;
  setProgressTitle(job.candidateTitle);
  announce(`${job.candidateTitle}.`);
}

export function onCompare(reports: Report[]): void {
  if (!job?.candidates || !job.config) return;
  const config = job.config;
  const candidates = job.candidates;
  const wrong = reports.map((r, i) => sizeMismatch(r.input, candidates[i]?.size ?? null, candidates[i]?.name ?? 'A candidate')).find((m) => m);
  if (wrong) return showSizeMismatch(wrong);
  removeErrors(messages);
  renderCandidates(resultsPanel, {
    names: candidates.map((f) => f.name),
    sizes: candidates.map((f) => f.size),
    reports,
    original: job.original?.name ?? null,
    reference: job.reference?.name ?? null,
    config,
    choose: (candidates, params) => client.choose(config.quasi_identifiers, candidates, params),
    onDownload: (doc) => saveText(JSON.stringify(doc, null, 2), 'application/json', 'pseudolens-comparison.json'),
    onDownloadHtml: async () => {
      const html = comparisonHtmlReport({
        reports,
        names: candidates.map((f) => f.name),
        sizes: candidates.map((f) => f.size),
        original: job?.original?.name ?? null,
        reference: job?.reference?.name ?? null,
        resultsHtml: await snapshotResults(resultsPanel),
        css: pageCss(),
        version: engine.version,
        generatedAt: new Date(),
      });
      saveText(html, 'text/html', 'pseudolens-comparison.html');
    },
  });
  announce('Comparison finished. Results are below.');
  byId('results-title').setAttribute('tabindex', '-1');
  byId('results-title').focus({ preventScroll: true });
  resultsPanel.scrollIntoView({ block: 'start', behavior: 'auto' });
}
