// Comparing candidate releases: each candidate audited in turn with the same roles and
// settings against the side tables, read once; a CSV candidate streamed, a Parquet or Excel
// one read whole into a table freed after its audit. Nothing of them is kept.

import type { Request, Target } from '../shared/protocol';
import type { Audited } from '../../pkg/pseudolens_full.js';
import type { Report } from '../shared/report';
import { withEncoding, withEncodingRetry } from './encoding-retry';
import { engineFor } from './full-engine';
import { cellsTable } from './kept-table';
import { withAuditProgress } from './progress';
import { formatOf } from './released';
import { post } from './scope';
import { giveSides, sidesFor } from './side-tables';
import { streamAudit } from './streaming';

/** A candidate's report (no shareable variant is asked of it: the engine holds nothing). */
function reportOf(audited: Audited): Report {
  try {
    return audited.report() as Report;
  } finally {
    audited.free();
  }
}

/** Every candidate's report, in their order; the page is told which candidate is audited. */
export async function auditCandidates(request: Extract<Request, { type: 'compare' }>, onTarget: (t: Target) => void): Promise<Report[]> {
  const { id, config } = request;
  await engineFor(config, request);
  // Only the first candidate was profiled, so the others detect their own encoding.
  const reports: Report[] = [];
  const total = request.candidates.length;
  for (const [index, file] of request.candidates.entries()) {
    post({ type: 'candidate', id, index, total, name: file.name });
    const own = index === 0 ? config : { ...config, encoding: null };
    const format = await formatOf(file, file.name);
    const { report } = await withAuditProgress(id, () =>
      withEncodingRetry(id, 'table', own.encoding === 'windows-1252', async (encoding) => {
        const sides = await sidesFor(id, config, request.original, request.reference, request.control, onTarget);
        if (format === 'csv') return { report: reportOf(await streamAudit(id, file, withEncoding(own, encoding), sides)) };
        const { table } = await cellsTable(id, file, config, format);
        try {
          giveSides(table, sides);
          return { report: reportOf(table.audit(config)) };
        } finally {
          table.free();
        }
      }),
    );
    reports.push(report);
  }
  return reports;
}
