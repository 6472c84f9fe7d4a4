// The audit worker's entry and dispatch: each request of the page goes to the file that holds
// its concept. The only code that touches wasm (with the reader workers it starts,
// part-worker.ts). The released file is read once, in parallel (parallel-read.ts), into a
// table kept here (kept-table.ts): the profile, the audit and every later change of settings
// (recompute-queue.ts) are audits of that table (audit-release.ts), none reads the file again.
// A file that cannot be read in parts (UTF-16, a problem in a part) or kept (a column a role
// needs has too many values) is streamed as before (streaming.ts): read in the browser's
// chunks (file-chunks.ts) into the streaming `Audit`. Side tables (the original, the
// population table) are streamed into an `Original` / `Reference` (side-tables.ts); the
// drill-down and the per-record values read the kept table, or stream the file when it is not
// kept (drilldown.ts). Progress is posted at most every 100 ms (progress.ts). Cancel is
// handled by the page: it terminates this worker, and with it its readers (a wasm call cannot
// be interrupted). A Parquet file of several row groups (issue 14) is read in runs of row
// groups by the reader workers, an Excel file or a Parquet file of one row group whole by one
// reader worker, into the kept table (`read_cells`), never streamed: every audit of it is an
// audit of that table. A panic of the third-party reader stops that reader worker only; the
// page shows its message.

import { WarmUp, version } from '../../pkg/pseudolens_wasm.js';
import {
  assertNever,
  type ChooseRequest,
  type HeaderRequest,
  type ProtectRequest,
  type RecomputeRequest,
  type Request,
  type ShareableRequest,
  type ShownRequest,
  type WarmRequest,
  type Target,
} from '../shared/protocol';
import { toWireError, type Report } from '../shared/report';
import { runChoose, runHeader } from './answers';
import { auditRelease, forgetWhyNotKept } from './audit-release';
import { auditCandidates } from './candidates';
import { runProtect } from './protect';
import { extractRecords, perRecordValues } from './drilldown';
import { loadWasm, poolReady } from './engine';
import { forgetKept, kept } from './kept-table';
import { recompute } from './recompute-queue';
import { asBlob, newRelease } from './released';
import { onRequest, post } from './scope';
import { runShareable, shareableOf } from './shareable';
import { forgetSides } from './side-tables';

async function run(
  request: Exclude<Request, ChooseRequest | ShareableRequest | HeaderRequest | RecomputeRequest | ShownRequest | WarmRequest | ProtectRequest>,
): Promise<void> {
  const { id, config } = request;
  let target: Target = 'table';
  const onTarget = (t: Target) => {
    target = t;
  };
  try {
    await loadWasm();
    switch (request.type) {
      case 'run': {
        if (request.pass === 'profile') {
          // A new file: nothing of the last one is kept.
          forgetKept();
          forgetSides();
          forgetWhyNotKept();
          await newRelease(request.source);
        }
        const { original, reference, control } = request.pass === 'audit' ? request : { original: null, reference: null, control: null };
        const { audited, read } = await auditRelease(
          id,
          asBlob(request.source),
          config,
          original,
          reference,
          control,
          true,
          request.pass !== 'profile',
          onTarget,
        );
        if (request.pass === 'profile') {
          const report = audited.report() as Report;
          audited.free();
          post({ type: 'result', id, pass: 'profile', report, read });
        } else post({ type: 'result', id, pass: 'audit', report: audited.report() as Report, read, shareable: shareableOf(id, audited) });
        break;
      }
      case 'compare':
        post({ type: 'compare_result', id, reports: await auditCandidates(request, onTarget) });
        break;
      case 'extract':
        post({ type: 'extract_result', id, extracted: await extractRecords(id, request.source, config, request.classes) });
        break;
      case 'per_record':
        post({ type: 'per_record_result', id, ...(await perRecordValues(id, request.source, config)) });
        break;
      default:
        assertNever(request);
    }
  } catch (e) {
    post({ type: 'error', id, target, error: toWireError(e) });
  }
}

/** Requests being served: the warm-up waits while there are any. */
let serving = 0;
function served(work: Promise<unknown>): void {
  serving += 1;
  const done = () => {
    serving -= 1;
  };
  work.then(done, done);
}

onRequest((request) => {
  if (request.type === 'choose') served(runChoose(request));
  else if (request.type === 'shareable') runShareable(request);
  else if (request.type === 'header') served(runHeader(request));
  else if (request.type === 'recompute') {
    auditedFile = true;
    served(recompute(request));
  } else if (request.type === 'warm') warmUp(null);
  else if (
    request.type === 'propose_ladders' ||
    request.type === 'protect' ||
    request.type === 'protect_node' ||
    request.type === 'protect_release' ||
    request.type === 'ladder_csv'
  )
    served(runProtect(request));
  else if (request.type === 'shown') {
    // The profile is on screen: the file's hash starts, and the memory of the first audit is
    // taken while the user picks the roles.
    void kept?.hashed();
    kept?.table.prepare_audit();
  } else {
    if (request.type === 'run' && request.pass === 'audit') auditedFile = true;
    served(run(request));
  }
});

// Load the engine and start the readers as soon as the worker starts, so the first run does
// not wait for them and no fetch happens once the user has picked a CSV (a Parquet or Excel
// file fetches its readers, readers.ts). Once ready, the engine audits a small generated table a
// few times when the page asks (`warm`: the current worker, never the standby), one step per
// task while no request is being served, so that the first audit of a file runs optimized code
// and a file chosen at once waits for none (issue 40: ready within 1 s of a cold load).
Promise.all([loadWasm(), poolReady]).then(
  () => post({ type: 'ready', version: version() }),
  (e: unknown) => post({ type: 'engine_failed', error: toWireError(e) }),
);

/** Whether an audit of the user's own file has been asked for: it warms the engine itself. */
let auditedFile = false;

/** How long the warm-up waits before it looks again whether the worker is idle, in ms. */
const WARM_UP_WAIT_MS = 50;

/**
 * Runs the next step of the warm-up (`warm` null: the first) when no request is being served,
 * and schedules the one after: a file chosen at once is read and profiled without waiting for
 * it (the steps resume while the user sets the roles).
 */
function warmUp(warm: WarmUp | null): void {
  if (serving > 0 && !auditedFile) {
    setTimeout(() => warmUp(warm), WARM_UP_WAIT_MS);
    return;
  }
  let steps = warm;
  try {
    if (!auditedFile) {
      steps ??= new WarmUp();
      if (steps.step()) {
        setTimeout(() => warmUp(steps), 0);
        return;
      }
    }
  } catch (e) {
    // The engine failed on a table it generated itself: it cannot be trusted with a file.
    steps?.free();
    post({ type: 'engine_failed', error: toWireError(e) });
    return;
  }
  steps?.free();
  post({ type: 'warmed', id: 0 });
}
