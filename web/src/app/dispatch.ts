// The worker's messages to the page: one switch that hands each to the file of its concept
// (progress, profile, audit results, comparison, downloads), and says here what the others
// mean: a failed run or recompute (with "Read leniently" offered), an encoding retry, a CSP
// violation in the worker, the engine loaded or not.

import { showExtractStatus, showPerRecordStatus } from '../results/drilldown/drilldown-view';
import { assertNever, type CspViolation, type Response } from '../shared/protocol';
import { LENIENT_HELPS, SIDE_NAMES, addMessage, describeError, showMessage } from '../ui/messages';
import { onAudit, onRecomputed } from './audit-results';
import { onCandidate, onCompare } from './compare';
import { onExtracted, onPerRecord } from './downloads';
import { engineLine, messages } from './elements';
import { client, engine } from './engine';
import { job } from './job';
import { onFileHash, onProfile } from './profile';
import { announce, hideProgress, updateAuditProgress, updateProgress } from './progress';
import { readLeniently } from './reading';
import { freshness } from './recompute';

function reportCspViolation(violation: CspViolation): void {
  console.warn('Content-Security-Policy blocked something in the audit worker', violation);
  window.dispatchEvent(new CustomEvent('pseudolens:csp-violation', { detail: violation }));
}

export function onWorkerMessage(message: Response): void {
  switch (message.type) {
    case 'progress':
      updateProgress(message.progress);
      break;
    case 'audit_progress': {
      const line = updateAuditProgress(message.progress);
      if (line !== null) freshness.progress(line);
      break;
    }
    case 'result':
      hideProgress();
      if (message.pass === 'profile') onProfile(message.report, message.read);
      else onAudit(message.report, message.read, message.shareable);
      break;
    case 'recomputed':
      onRecomputed(message.report, message.read, message.shareable);
      break;
    case 'file_hash':
      onFileHash(message.sha256);
      break;
    case 'recompute_error': {
      if (!freshness.current) break;
      if (message.error.kind === 'internal') client.restart();
      const label = message.target === 'table' ? (job?.label ?? 'The file') : `The ${SIDE_NAMES[message.target]}`;
      const { title, detail, advice } = describeError(message.error, label, message.target !== 'table', job?.lenient ?? false);
      showMessage(messages, 'error', title, detail, { advice });
      freshness.failed();
      announce(title);
      break;
    }
    case 'extract_result':
      hideProgress();
      onExtracted(message.extracted);
      break;
    case 'per_record_result':
      hideProgress();
      onPerRecord(message.csv, message.records, message.kept);
      break;
    case 'candidate':
      onCandidate(message.index, message.total, message.name);
      break;
    case 'compare_result':
      hideProgress();
      onCompare(message.reports);
      break;
    case 'choice':
    case 'shareable_report':
    case 'header':
    case 'proposed':
    case 'protected':
    case 'protect_node':
    case 'release_chunk':
    case 'release_written':
    case 'ladder_csv':
      break; // answered through WorkerClient.choose, .shareable, .header and .protect
    case 'error': {
      hideProgress();
      if (message.error.kind === 'internal') client.restart();
      const side = message.target === 'table' ? null : job?.[message.target === 'population' ? 'reference' : message.target];
      const label =
        message.target === 'table'
          ? ((job?.pass === 'compare' ? job.candidateName : null) ?? job?.label ?? 'The file')
          : `The ${SIDE_NAMES[message.target]} ${side?.name ?? ''}`.trim();
      const lenient = job?.lenient ?? false;
      const { title, detail, advice } = describeError(message.error, label, message.target !== 'table', lenient);
      const offer = job && !lenient && LENIENT_HELPS.has(message.error.code) && job.pass !== 'extract' && job.pass !== 'per_record';
      const action = offer ? { label: 'Read leniently', id: 'read-leniently', run: readLeniently } : null;
      showMessage(messages, 'error', title, detail, { advice, action });
      if (job?.pass === 'extract') showExtractStatus(`The records could not be collected: ${title}`, 'error');
      if (job?.pass === 'per_record') showPerRecordStatus(`The per-record risks could not be collected: ${title}`, 'error');
      announce(title);
      break;
    }
    case 'encoding_retry':
      if (job && message.target === 'table') job.encoding = message.encoding;
      addMessage(
        messages,
        'note',
        `${message.target === 'table' ? 'This file' : `The ${SIDE_NAMES[message.target]}`} is not UTF-8 text; reading it again as Windows-1252 (Western European).`,
        'Accented letters will be read correctly if the file came from an older Windows program or Excel.',
      );
      break;
    case 'csp_violation':
      reportCspViolation(message.violation);
      break;
    case 'ready':
      document.documentElement.dataset.engine = 'ready';
      engine.version = message.version;
      engineLine.textContent = `Audit engine ${message.version} loaded in this page.`;
      break;
    case 'warmed':
      // The engine has run its warm-up (the worker client starts the standby then).
      document.documentElement.dataset.warm = 'done';
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
