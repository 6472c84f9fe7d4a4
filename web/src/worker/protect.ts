// Protect (spec protect.md) in the worker, on the kept table: the ladders proposed from the
// values, the exact search of the lattice (its progress posted), any node's figures, a
// ladder in ARX's layout, and the release of a node written chunk by chunk: each chunk goes
// to the page (which saves the download) and into a streaming audit of the release at once,
// whose figures are checked against the search's prediction. The latest protection stays
// here for the node chooser and the release; a restarted worker has none (search again).

import type { Protecting } from '../../pkg/pseudolens_full.js';
import type { LadderView, NodeView, ProtectParams } from '../shared/contract';
import { assertNever, type ProtectRequest, type Source } from '../shared/protocol';
import { toWireError, type AuditConfig, type MetricResult, type Report, type WireError } from '../shared/report';
import { foundNotKeepable } from './audit-release';
import { loadWasm } from './engine';
import { useFullEngine } from './full-engine';
import { wasm } from './which-engine';
import { keep, kept } from './kept-table';
import { withAuditProgress } from './progress';
import { asBlob, newRelease, released } from './released';
import { post } from './scope';
import { shareableOf } from './shareable';

/** Rows of the release written per chunk. */
const RELEASE_ROWS = 1 << 16;

/** The latest protection, for the kept table it was made from. */
let latest: { protecting: Protecting; table: unknown } | null = null;

function error(code: string, message: string): WireError {
  return { kind: 'config', code, message, line: null, column: null };
}

/** The kept table, read again from `source` when this worker holds none (a restarted worker). */
async function keptTable(id: number, source: Source, config: AuditConfig) {
  // A file found not keepable is not read again for nothing (nor its count of reads reset).
  if (!kept && !foundNotKeepable()) {
    // A restarted worker knows nothing of the file yet: its format and sheet first.
    if (released.fileReads === 0) await newRelease(source);
    await keep(id, asBlob(source), config);
  }
  if (!kept) throw error('not_kept', 'The file could not be kept in memory (UTF-16 text, or a problem in a part), which protect needs.');
  return kept.table;
}

/** The latest protection, or the error that says to search first. */
function current(): Protecting {
  if (!latest || latest.table !== kept?.table)
    throw error('no_search', 'No search is held in the engine (its worker was restarted, or the file changed): search again.');
  return latest.protecting;
}

async function search(id: number, source: Source, config: AuditConfig, params: ProtectParams): Promise<{ result: MetricResult; ladders: LadderView[] }> {
  const table = await keptTable(id, source, config);
  latest?.protecting.free();
  latest = null;
  const protecting = table.protector(config, params);
  latest = { protecting, table };
  const result = await withAuditProgress(id, async () => protecting.search() as MetricResult);
  return { result, ladders: protecting.ladders() as LadderView[] };
}

/** Writes the release of `levels` to the page chunk by chunk and audits it at once. */
async function release(id: number, levels: number[]): Promise<void> {
  const protecting = current();
  const table = kept!.table;
  const levelsU32 = Uint32Array.from(levels);
  const audit = new (wasm().Audit)(protecting.release_config(levelsU32));
  try {
    const rows = protecting.rows();
    for (let from = 0; from === 0 || from < rows; from += RELEASE_ROWS) {
      const bytes = table.release_rows(protecting, levelsU32, from, from + RELEASE_ROWS);
      audit.push(bytes);
      post({ type: 'release_chunk', id, bytes, rows: Math.min(rows, from + RELEASE_ROWS), total: rows }, [bytes.buffer]);
      // Let a cancel (the page terminates this worker) and other messages in between chunks.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const audited = await withAuditProgress(id, async () => audit.finish());
    const checked = protecting.check(levelsU32, audited);
    post({ type: 'release_written', id, report: audited.report() as Report, shareable: shareableOf(id, audited), checked, error: null });
  } finally {
    audit.free();
  }
}

/** Answers a protect request; its errors go back in its answer. */
export async function runProtect(request: ProtectRequest): Promise<void> {
  const { id } = request;
  try {
    await loadWasm();
    // The ladders are proposed with every report, by the first engine; the rest is the full one's.
    if (request.type !== 'propose_ladders') await useFullEngine();
    switch (request.type) {
      case 'propose_ladders': {
        const table = await keptTable(id, request.source, request.config);
        const ladders = table.propose_ladders(request.config, request.quasi_identifiers) as ProtectParams['ladders'];
        post({ type: 'proposed', id, ladders, error: null });
        break;
      }
      case 'protect':
        post({ type: 'protected', id, ...(await search(id, request.source, request.config, request.params)), error: null });
        break;
      case 'protect_node':
        post({ type: 'protect_node', id, node: current().node(Uint32Array.from(request.levels)) as NodeView, error: null });
        break;
      case 'protect_release':
        await release(id, request.levels);
        break;
      case 'ladder_csv':
        post({ type: 'ladder_csv', id, csv: current().ladder_csv(request.qi), error: null });
        break;
      default:
        assertNever(request);
    }
  } catch (e) {
    const wire = toWireError(e);
    switch (request.type) {
      case 'propose_ladders':
        return post({ type: 'proposed', id, ladders: null, error: wire });
      case 'protect':
        return post({ type: 'protected', id, result: null, ladders: null, error: wire });
      case 'protect_node':
        return post({ type: 'protect_node', id, node: null, error: wire });
      case 'protect_release':
        return post({ type: 'release_written', id, report: null, shareable: null, checked: false, error: wire });
      case 'ladder_csv':
        return post({ type: 'ladder_csv', id, csv: null, error: wire });
      default:
        assertNever(request);
    }
  }
}
