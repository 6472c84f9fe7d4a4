// What the page says while it works: the progress panel of a pass (its title, bar and line,
// with the time left) and the status line screen readers hear.

import { Estimate } from '../ui/estimate';
import { count, megabytes, percent, plural, rate } from '../ui/format';
import { SIDE_NAMES } from '../ui/messages';
import type { AuditProgress, Pass, Progress } from '../shared/protocol';
import { progressBar, progressPanel, progressText, progressTitle, statusLine } from './elements';
import { job } from './job';

export function announce(text: string): void {
  statusLine.textContent = text;
}

export const PASS_TITLES: Readonly<Record<Pass, string>> = {
  profile: 'Profiling the columns',
  audit: 'Auditing the released file',
  extract: 'Collecting the records of the riskiest groups',
  compare: 'Auditing the candidate releases',
  per_record: 'Collecting each record’s risk',
};

export function setProgressTitle(text: string): void {
  progressTitle.textContent = `${text}…`;
}

/** The time left of the read or audit phase shown. */
export const estimate = new Estimate();

export function showProgress(pass: Pass): void {
  estimate.reset(performance.now());
  setProgressTitle(PASS_TITLES[pass]);
  progressBar.value = 0;
  progressBar.max = 1;
  progressText.textContent = 'Starting…';
  progressPanel.hidden = false;
  announce(`${PASS_TITLES[pass]}.`);
}

export function hideProgress(): void {
  progressPanel.hidden = true;
}

export function updateProgress(p: Progress): void {
  if (!job) return;
  if (job.pass) {
    const suffix = job.pass === 'compare' && job.candidateTitle ? ` for ${job.candidateName}` : '';
    setProgressTitle(
      p.target === 'table'
        ? job.pass === 'compare'
          ? (job.candidateTitle ?? PASS_TITLES.compare)
          : PASS_TITLES[job.pass]
        : `Reading the ${SIDE_NAMES[p.target]}${suffix}`,
    );
  }
  progressBar.max = Math.max(1, p.totalBytes);
  progressBar.value = p.bytes;
  const rows = p.rows === null ? '' : `${plural(p.rows, 'row')} · `;
  const left = estimate.update(`read ${p.target}`, p.bytes, p.totalBytes, performance.now());
  progressText.textContent = `${rows}${megabytes(p.bytes)} of ${megabytes(p.totalBytes)} · ${rate(p.mbPerSec)} · ${left}`;
  // Screen readers hear a quarter-by-quarter summary, not ten updates a second.
  const quarter = p.totalBytes > 0 ? Math.floor((4 * p.bytes) / p.totalBytes) : 0;
  if (quarter > job.announcedQuarter && quarter < 4) {
    job.announcedQuarter = quarter;
    announce(`${quarter * 25}% read${p.rows === null ? '' : `, ${plural(p.rows, 'row')}`}.`);
  }
}

/** The audit after its read: the rows summarised into classes, then the measures' steps,
 * shown in the progress panel; a recompute (no pass's progress shown) says it on the line
 * above the results: returned for that line (null: shown in the panel, or no job). */
export function updateAuditProgress(p: AuditProgress): string | null {
  if (!job) return null;
  const step = p.phase === 'rows' ? 'grouping the rows into classes' : 'computing the measures';
  const units = p.phase === 'rows' ? plural(p.total, 'row') : plural(p.total, 'step');
  const left = estimate.update(p.phase, p.done, p.total, performance.now());
  const text = `${count(p.done)} of ${units} · ${percent(p.done / Math.max(1, p.total))} · ${left}`;
  if (!job.pass || progressPanel.hidden) return `${step}: ${text}`;
  const title = job.pass === 'compare' ? (job.candidateTitle ?? PASS_TITLES.compare) : PASS_TITLES[job.pass];
  setProgressTitle(`${title}: ${step}`);
  progressBar.max = Math.max(1, p.total);
  progressBar.value = p.done;
  progressText.textContent = text;
  return null;
}
