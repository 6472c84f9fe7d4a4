// The recompute queue: a change of settings after the first audit is answered from the kept
// table, one at a time; a request arriving while one runs waits, replacing any other waiting,
// and a result is posted only if no newer request came in meanwhile.

import type { RecomputeRequest, Target } from '../shared/protocol';
import { toWireError, type Report } from '../shared/report';
import { auditRelease } from './audit-release';
import { loadWasm } from './engine';
import { asBlob } from './released';
import { post } from './scope';
import { shareableOf } from './shareable';

/** The latest recompute not yet started (older ones are dropped unanswered). */
let latestRecompute: RecomputeRequest | null = null;
let recomputing = false;

/** Lets the messages that arrived during a wasm call in: a newer recompute supersedes. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Answers the latest recompute from the kept table, one at a time: a request arriving while
 * one runs waits, replacing any other waiting; a result is posted only if no newer request
 * came in meanwhile (a wasm call cannot be interrupted, and the table must not be lost).
 */
export async function recompute(request: RecomputeRequest): Promise<void> {
  latestRecompute = request;
  if (recomputing) return;
  recomputing = true;
  try {
    await loadWasm();
    for (await nextTask(); latestRecompute; await nextTask()) {
      const { id, source, config, original, reference, control } = latestRecompute;
      latestRecompute = null;
      let target: Target = 'table';
      try {
        const { audited, read } = await auditRelease(id, asBlob(source), config, original, reference, control, false, true, (t) => {
          target = t;
        });
        if (latestRecompute) audited.free();
        else post({ type: 'recomputed', id, report: audited.report() as Report, read, shareable: shareableOf(id, audited) });
      } catch (e) {
        if (!latestRecompute) post({ type: 'recompute_error', id, target, error: toWireError(e) });
      }
    }
  } finally {
    recomputing = false;
  }
}
