// Protect's engine for the page (results/protect): each request goes to the worker that keeps
// the table (worker/protect.ts); the release's chunks are gathered into the download, which is
// saved once the worker has written and audited it; its protection report is kept on the job
// for the HTML report.

import type { ProtectEngine } from '../shared/protect-data';
import type { AuditConfig, WireError } from '../shared/report';
import { fileStem, saveBlob, saveText } from '../ui/download';
import type { ProtectAnswer } from '../worker/worker-client';
import { client } from './engine';
import { job } from './job';

/** The answer of `type`, or its error thrown. */
function answer<T extends ProtectAnswer['type']>(a: ProtectAnswer, type: T): Extract<ProtectAnswer, { type: T }> {
  if (a.type !== type) throw new Error(`unexpected answer ${a.type}`);
  const error = (a as { error: WireError | null }).error;
  if (error) throw error;
  return a as Extract<ProtectAnswer, { type: T }>;
}

/** The engine of the shown audit's file, read with `config` (null: no file). */
export function protectEngine(config: AuditConfig): ProtectEngine | null {
  if (!job) return null;
  const owner = job;
  const { source, label } = owner;
  return {
    propose: async (qis) => {
      const a = answer(await client.protect({ type: 'propose_ladders', source, config, quasi_identifiers: qis }), 'proposed');
      return a.ladders ?? {};
    },
    search: async (params, progress) => {
      const a = answer(await client.protect({ type: 'protect', source, config, params }, { progress }), 'protected');
      if (!a.result || !a.ladders) throw new Error('no result');
      return { result: a.result, ladders: a.ladders };
    },
    node: async (levels) => {
      const a = answer(await client.protect({ type: 'protect_node', levels }), 'protect_node');
      if (!a.node) throw new Error('no node');
      return a.node;
    },
    release: async (levels, written) => {
      const parts: Uint8Array<ArrayBuffer>[] = [];
      let bytes = 0;
      const chunk = (b: Uint8Array, rows: number, total: number) => {
        parts.push(b as Uint8Array<ArrayBuffer>);
        bytes += b.length;
        written(bytes, total ? rows / total : 1);
      };
      const a = answer(await client.protect({ type: 'protect_release', levels }, { chunk }), 'release_written');
      if (!a.report) throw new Error('no report');
      saveBlob(new Blob(parts, { type: 'text/csv' }), `${fileStem(label)}-protected.csv`);
      return { report: a.report, checked: a.checked };
    },
    ladderCsv: async (qi) => answer(await client.protect({ type: 'ladder_csv', qi }), 'ladder_csv').csv ?? '',
    keepProtection: (report) => (owner.protection = report),
    save: saveText,
    cancel: () => client.cancel(),
  };
}
