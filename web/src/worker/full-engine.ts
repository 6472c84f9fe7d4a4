// The full engine (issue 40). The page's first engine makes a first report of a CSV file; SUDA,
// the HIPAA checklist, the attacks and the synthetic measures, an original or a control table,
// and protect need the full engine (crate/wasm, feature `full`: the first one with these). It
// is fetched (same origin) and compiled at the first request that needs it, as the Parquet and
// Excel readers are, and is this worker's engine from then on: the kept table moves into it as
// its bytes, and the side tables are read again into it. The reader workers keep the first
// engine: what they compute (parts of the file, the attribution lattice, the bootstrap's
// parts) is the same in both. The service worker keeps it with the rest of the deployment.

import fullUrl from '../../pkg/pseudolens_full_bg.wasm?url';
import { needs_full_engine } from '../../pkg/pseudolens_wasm.js';
import type { AuditConfig, WireError } from '../shared/report';
import { compiledFrom } from './compile';
import { inCurrent, isFull, setEngine, wasm } from './which-engine';
import { kept } from './kept-table';
import { forgetSides } from './side-tables';

let loading: Promise<void> | null = null;

/** Makes the full engine this worker's engine (once; a failed load is tried again at the next
 * call); rejects with `full_engine_unavailable` when it cannot be fetched (offline, the page not
 * installed). */
export function useFullEngine(): Promise<void> {
  if (!loading) {
    loading = Promise.all([import('../../pkg/pseudolens_full.js'), compiledFrom(fullUrl, 'The full engine')])
      .then(async ([glue, module]) => {
        await glue.default({ module_or_path: module });
        const before = wasm();
        setEngine(glue);
        if (kept) kept.table = inCurrent(kept.table, before);
        forgetSides();
      })
      .catch((e: unknown) => {
        loading = null;
        throw unavailable(e);
      });
  }
  return loading;
}

/** Makes the full engine this worker's engine when an audit with `config` (and side tables:
 * an original or a control table) needs it. */
export async function engineFor(config: AuditConfig, sides: { original: unknown; control: unknown } | null = null): Promise<void> {
  if (isFull()) return;
  if (sides?.original || sides?.control || needs_full_engine(config) !== undefined) await useFullEngine();
}

/** The error of a full engine that could not be loaded: the page says what to do (messages.ts). */
function unavailable(e: unknown): WireError {
  const why = e instanceof Error ? e.message : String(e);
  return {
    kind: 'input',
    code: 'full_engine_unavailable',
    message: `the full engine, which these settings need, could not be loaded (${why})`,
    line: null,
    column: null,
  };
}
