// Step 1's inputs: a file chosen, candidate releases chosen, a synthetic release chosen, the
// sample, a file dropped (one at a time); and the cancel button of a pass under way.

import { showExtractStatus, showPerRecordStatus } from '../results/drilldown/drilldown-view';
import { showMessage } from '../ui/messages';
import { cancelButton, candidatesInput, dropZone, fileInput, messages, sampleButton, syntheticInput } from './elements';
import { client } from './engine';
import { job } from './job';
import { start } from './passes';
import { announce, hideProgress } from './progress';

/** What cancelling stopped, and how to start it again. */
function cancel(): void {
  client.cancel();
  hideProgress();
  const what =
    job?.pass === 'compare'
      ? 'The comparison of the candidates'
      : job?.pass === 'audit'
        ? `The audit of ${job.label}`
        : job?.pass === 'extract'
          ? 'Collecting the records of the riskiest groups'
          : job?.pass === 'per_record'
            ? 'Collecting each record’s risk'
            : `Reading ${job?.label ?? 'the file'}`;
  const again =
    job?.pass === 'compare'
      ? 'Press "Compare candidates" to start it again.'
      : job?.pass === 'audit'
        ? 'Press "Run audit" to start it again.'
        : job?.pass === 'extract' || job?.pass === 'per_record'
          ? 'The results are still shown; press the download button to try again.'
          : 'Choose a file or try the sample to start again.';
  if (job?.pass === 'extract') showExtractStatus('Cancelled.', 'error');
  if (job?.pass === 'per_record') showPerRecordStatus('Cancelled.', 'error');
  showMessage(messages, 'note', 'Cancelled.', `${what} was stopped and nothing was kept. ${again}`);
  announce('Cancelled.');
  if (job) job.pass = null;
}

/** A file dropped on the zone: read it, unless several were dropped. */
function drop(e: DragEvent): void {
  e.preventDefault();
  const files = [...(e.dataTransfer?.files ?? [])];
  if (files.length > 1) {
    // Never audit one of them silently: say which were dropped and what to do instead.
    const names = files.map((f) => f.name).join(', ');
    showMessage(
      messages,
      'error',
      `${files.length} files were dropped; drop one file at a time.`,
      `Nothing was read of ${names}. Drop only the table to audit; to compare candidate releases of one table, choose them with “Compare candidate releases…”.`,
    );
    announce(`${files.length} files were dropped; drop one file at a time.`);
    return;
  }
  const file = files[0];
  if (file) start({ kind: 'file', file }, file.name, false);
}

export function wireInputs(): void {
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file) start({ kind: 'file', file }, file.name, false);
    fileInput.value = ''; // picking the same file again still fires "change"
  });

  candidatesInput.addEventListener('change', () => {
    const files = [...(candidatesInput.files ?? [])];
    candidatesInput.value = '';
    if (files.length === 0) return;
    if (files.length < 2) {
      showMessage(
        messages,
        'error',
        'Choose at least two candidate releases.',
        'Select two or more released versions of the same table at once (hold Ctrl or Shift in the file dialog), or use “Choose a file” to audit a single release.',
      );
      return;
    }
    start({ kind: 'file', file: files[0]! }, `${files[0]!.name} (first of ${files.length} candidates)`, false, files);
  });

  syntheticInput.addEventListener('change', () => {
    const file = syntheticInput.files?.[0];
    syntheticInput.value = '';
    if (file) start({ kind: 'file', file }, file.name, false, null, true);
  });

  sampleButton.addEventListener('click', () => start({ kind: 'sample' }, 'Sample (synthetic hospital data)', true));

  cancelButton.addEventListener('click', cancel);

  for (const type of ['dragenter', 'dragover'] as const) {
    dropZone.addEventListener(type, (e) => {
      e.preventDefault();
      dropZone.classList.add('dragging');
    });
  }
  for (const type of ['dragleave', 'drop'] as const) {
    dropZone.addEventListener(type, () => dropZone.classList.remove('dragging'));
  }
  dropZone.addEventListener('drop', drop);
  // A file dropped next to the zone must not make the browser navigate away to it.
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('drop', (e) => e.preventDefault());
}
