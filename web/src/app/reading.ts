// How the file is read, and reading it again: "Read leniently" (offered by a strict read's
// error), the lenient-reading checkbox and the header row; a change reads the chosen file
// again, so what the page shows was read with it.

import { headerRowBox, lenientBox } from './elements';
import { runCompare } from './compare';
import { headerRowOf, job } from './job';
import { runAudit, start } from './passes';
import { announce } from './progress';

/**
 * "Read leniently" (offered by a strict read's error): switches the setting on and reads again
 * what failed: the file from the start, or the same audit or comparison with the same choices.
 */
export function readLeniently(): void {
  if (!job) return;
  lenientBox.checked = true;
  lenientBox.focus();
  const failed = job.pass;
  if ((failed === 'audit' || failed === 'compare') && job.choices) {
    job.lenient = true;
    if (failed === 'audit') runAudit(job.choices);
    else runCompare(job.choices);
    announce(`Reading ${job.label} again leniently.`);
    return;
  }
  start(job.source, job.label, job.autoAudit, job.candidates, job.synthetic);
  announce(`Reading ${job.label} again leniently.`);
}

/** A change of the reading options reads the chosen file again. */
export function wireReading(): void {
  lenientBox.addEventListener('change', () => {
    if (!job) return;
    start(job.source, job.label, job.autoAudit, job.candidates, job.synthetic);
    announce(`Reading ${job.label} again, ${lenientBox.checked ? 'leniently' : 'strictly'}.`);
  });

  headerRowBox.addEventListener('change', () => {
    if (!job || headerRowOf() === job.headerRow) return;
    start(job.source, job.label, job.autoAudit, job.candidates, job.synthetic);
    announce(`Reading ${job.label} again, ${job.headerRow === null ? 'its header row detected' : `its header from row ${job.headerRow}`}.`);
  });
}
