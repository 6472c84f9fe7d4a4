// Recomputing: the results kept in step with step 2's settings. The Freshness of the results
// panel (freshness.ts), with the key of the settings as they stand and the recompute it asks
// for, an audit again from the table the worker keeps.

import { freshnessLine, resultsPanel } from './elements';
import { client } from './engine';
import { Freshness } from './freshness';
import { configOf, job } from './job';
import { estimate } from './progress';

/** The current choices of step 2 as a string equal for equal settings; null if none apply. */
function settingsKey(): string | null {
  const choices = job?.form && !job.candidates ? job.form.current() : null;
  if (!job || !choices) return null;
  const tables = [choices.reference, choices.original, choices.original ? choices.control : null].map(fileId);
  return JSON.stringify([configOf(job, choices), tables]);
}

/** Files told apart by identity: the same pick of a file keeps its number. */
const fileIds = new WeakMap<File, number>();
let filesNumbered = 0;
function fileId(file: File | null): number | null {
  if (!file) return null;
  let id = fileIds.get(file);
  if (id === undefined) fileIds.set(file, (id = ++filesNumbered));
  return id;
}

/** Audits the current choices of step 2 again from the kept table; false if they cannot be. */
function recompute(): boolean {
  if (!job?.form || job.candidates) return false;
  const choices = job.form.current();
  if (!choices) return false;
  job.choices = choices;
  job.config = configOf(job, choices);
  job.reference = choices.reference;
  job.original = choices.original;
  job.control = choices.original ? choices.control : null;
  client.recompute(job.source, job.config, choices.reference, choices.original, job.control);
  estimate.reset(performance.now());
  return true;
}

export const freshness = new Freshness(freshnessLine, resultsPanel, recompute, settingsKey);
