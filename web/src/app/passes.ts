// The passes of a job: a new file started (its profile pass), the audit of step 2's choices,
// and the two passes a shown report asks for (the records of the riskiest groups, each
// record's risk); the panels cleared of what an earlier pass showed.

import { clearCandidates } from '../results/balance/candidates-view';
import { clearResults } from '../results/results-view';
import { profileConfig, type AuditChoices } from '../setup/roles';
import type { ClassValues, Source } from '../shared/protocol';
import { clearMessages } from '../ui/messages';
import { messages, profilePanel, resultsPanel } from './elements';
import { client } from './engine';
import { configOf, job, newJob, readingOf } from './job';
import { showProgress } from './progress';
import { freshness } from './recompute';

export function clearPanel(): void {
  clearCandidates();
  clearResults(resultsPanel);
  freshness.clear();
}

/** Reads a new file (a candidate comparison: the first of `candidates`; `synthetic`: a
 * synthetic or perturbed release, measured against its original): its profile pass. */
export function start(source: Source, label: string, autoAudit: boolean, candidates: File[] | null = null, synthetic = false): void {
  if (client.busy) client.cancel();
  newJob(source, label, autoAudit, candidates, synthetic);
  clearMessages(messages);
  profilePanel.hidden = true;
  profilePanel.replaceChildren();
  clearPanel();
  startPass('profile', null);
}

function startPass(pass: 'profile' | 'audit', choices: AuditChoices | null): void {
  if (!job) return;
  job.pass = pass;
  job.announcedQuarter = 0;
  showProgress(pass);
  if (choices) {
    job.choices = choices;
    job.config = configOf(job, choices);
    job.reference = choices.reference;
    job.original = choices.original;
    job.control = choices.original ? choices.control : null;
    client.run(pass, job.source, job.config, choices.reference, choices.original, job.control);
  } else {
    client.run(pass, job.source, { ...profileConfig(), encoding: job.encoding, ...readingOf(job) });
  }
}

export function runAudit(choices: AuditChoices): void {
  if (!job) return;
  clearMessages(messages);
  clearPanel();
  freshness.asked();
  startPass('audit', choices);
}

/** The drill-down: the worker reads the file again and returns the rows of `classes`. */
export function runExtract(classes: ClassValues[]): void {
  if (!job?.config) return;
  job.pass = 'extract';
  job.announcedQuarter = 0;
  showProgress('extract');
  client.extract(job.source, { ...job.config, encoding: job.encoding ?? job.config.encoding ?? null }, classes);
}

/** Each record's values: from the worker's kept table, else a second read of the file. */
export function runPerRecord(): void {
  if (!job?.config) return;
  job.pass = 'per_record';
  job.announcedQuarter = 0;
  showProgress('per_record');
  client.perRecord(job.source, { ...job.config, encoding: job.encoding ?? job.config.encoding ?? null });
}
