// The protection part of the saved HTML report (issue 38, Deliver 4): what the protection
// report (JSON) of the release written in the page says, as static HTML: the node written, a
// level per quasi-identifier, whether it meets the criteria, the criteria and the suppression
// limit, the figures before, predicted and after, whether the release's audit gives the
// prediction; then each ladder in ARX's layout, in the full report only (they list every value
// of the quasi-identifiers: the shareable variant keeps their levels' names and counts).

import type { Figures } from '../shared/contract';
import type { AuditHeadline, ProtectionReport } from '../shared/protect-data';
import { isRecord } from '../shared/report';
import { count, percent, score } from '../ui/format';
import { escapeHtml as esc, htmlTable } from './html-text';

/** A key of the search's details, or null. */
function detail(doc: ProtectionReport, key: string): unknown {
  return isRecord(doc.protect.details) ? (doc.protect.details[key] ?? null) : null;
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** A row headed `head`; `numeric`: its cells are figures, aligned on the right. */
function row(head: string, cells: string[], attrs = '', numeric = false): string {
  const td = numeric ? '<td class="num">' : '<td>';
  return `<tr${attrs}><th scope="row">${esc(head)}</th>${cells.map((c) => `${td}${esc(c)}</td>`).join('')}</tr>`;
}

/** The criteria and the suppression limit of the search, and how many nodes met them. */
function criteriaRows(doc: ProtectionReport): string[] {
  const criteria = detail(doc, 'criteria');
  const c = isRecord(criteria) ? criteria : {};
  const sensitive = Array.isArray(c.sensitive) ? c.sensitive.join(', ') : '';
  const set = (v: unknown, text: (x: number) => string) => (num(v) === null ? 'not set' : text(num(v) as number));
  const suppressed = detail(doc, 'suppressed') === 'star' ? 'written with * in every quasi-identifier' : 'left out of the file';
  return [
    row('Smallest class k', [set(c.k, count)], ' data-criterion="k"'),
    row('Distinct l per sensitive column', [set(c.l, (l) => `${count(l)} (${sensitive})`)], ' data-criterion="l"'),
    row('t-closeness', [set(c.t, (t) => `${t} (distance ${c.t_distance}; ${sensitive})`)], ' data-criterion="t"'),
    row('Average risk at most', [set(c.average_risk, percent)], ' data-criterion="average_risk"'),
    row('Records suppressed at most', [`${percent(num(detail(doc, 'suppression_limit')))} of the records in scope`], ' data-criterion="suppression_limit"'),
    row('Suppressed records in the release', [suppressed]),
    row('Nodes searched', [`${count(num(detail(doc, 'nodes_total')))}, of which ${count(num(detail(doc, 'nodes_feasible')))} meet the criteria`]),
  ];
}

/** How the page names a ladder's kind. */
function kindName(kind: unknown): string {
  return kind === 'default' ? 'the value, then *' : typeof kind === 'string' ? kind : '—';
}

/** A row per quasi-identifier: its ladder, the level written and its name, its labels there. */
function nodeRows(doc: ProtectionReport): string[] {
  const all = detail(doc, 'ladders');
  const ladders = isRecord(all) ? all : {};
  return Object.entries(doc.written.levels).map(([qi, level]) => {
    const ladder = isRecord(ladders[qi]) ? ladders[qi] : {};
    const height = num(ladder.height);
    const labels = Array.isArray(ladder.labels_per_level) ? num(ladder.labels_per_level[level]) : null;
    const at = height === null ? String(level) : `${level} of ${height - 1}`;
    return row(qi, [kindName(ladder.kind), `${at}: ${doc.written.labels[qi] ?? '—'}`, count(labels)], ` data-qi="${esc(qi)}"`);
  });
}

/** The figures of the original (before), of the node as predicted, and of the release audited
 * (after); a figure the search does not predict, or an audit does not give, is a dash. */
function figureRows(doc: ProtectionReport): string[] {
  const before: Partial<AuditHeadline> = doc.before ?? {};
  const after = doc.after;
  const p: Figures = doc.written.predicted;
  const inScope = num(detail(doc, 'records_in_scope'));
  const verdict = (v: string | null | undefined) => (v ? v.toUpperCase() : '—');
  const dash = '—';
  const figure = (id: string, head: string, cells: string[]) => row(head, cells, ` data-figure="${id}"`, true);
  return [
    figure('verdict', 'Verdict (ARX thresholds)', [verdict(before.verdict), dash, verdict(after.verdict)]),
    figure('records', 'Records', [count(before.records), count(inScope === null ? null : inScope - p.records_suppressed), count(after.records)]),
    figure('records_suppressed', 'Records suppressed', [
      dash,
      `${count(p.records_suppressed)} (${percent(inScope ? p.records_suppressed / inScope : null)})`,
      dash,
    ]),
    figure('k', 'Smallest class k', [count(before.k), count(p.k), count(after.k)]),
    figure('uniques', 'Uniques', [count(before.uniques), dash, count(after.uniques)]),
    figure('records_at_risk', 'Records at risk', [percent(before.records_at_risk), percent(p.records_at_risk), percent(after.records_at_risk)]),
    figure('average_risk', 'Average risk', [score(before.average_risk), score(p.average_risk), score(after.average_risk)]),
    figure('loss', 'Information lost', [dash, score(p.loss), dash]),
  ];
}

/** Each ladder in ARX's layout (full report), or why they are left out (shareable). */
function laddersHtml(doc: ProtectionReport, shareable: boolean): string {
  if (shareable)
    return (
      `<p class="help" id="protection-ladders-left-out">The ladders in ARX's layout list every value of the quasi-identifiers, so this shareable report leaves them out; ` +
      `the full report and the protection report (JSON) hold them.</p>`
    );
  const ladders = Object.entries(doc.hierarchies).map(([qi, csv]) => {
    const values = csv.split('\n').filter((line) => line.trim() !== '').length;
    return `<h4>${esc(qi)} (${esc(count(values))} ${values === 1 ? 'value' : 'values'})</h4><pre class="hierarchy-csv" data-qi="${esc(qi)}">${esc(csv)}</pre>`;
  });
  return (
    `<p class="help">One row per value of the column, then its label at each level above it, separated by semicolons: the file ARX reads as a hierarchy. ` +
    `They list every value of the quasi-identifiers: keep this report to yourself.</p>${ladders.join('')}`
  );
}

/** The protection part of the HTML report; the shareable variant without the ladders' values. */
export function protectionSection(doc: ProtectionReport, shareable: boolean): string {
  const feasible = doc.written.feasible
    ? 'It meets the criteria within the suppression limit.'
    : 'It does not meet the criteria within the suppression limit: it was written at the user’s judgement.';
  const checked = doc.checked
    ? 'Its audit gives the figures the search predicted for the node: k, classes, average risk and records.'
    : 'Its audit was not compared with the prediction: every column is at the top of its ladder, where no record stays in scope.';
  return (
    `<section class="panel report-block" id="report-protection" aria-labelledby="protection-title">` +
    `<h2 id="protection-title">Protection: the release written</h2>` +
    `<p class="lead" data-feasible="${doc.written.feasible}">A protected release of this file was written in the page, at the node below, and audited at once. ${esc(feasible)}</p>` +
    `<p data-checked="${doc.checked}">${esc(checked)}</p>` +
    `<h3>The node written: a level per quasi-identifier</h3>` +
    htmlTable('The node written', ['Column', 'Ladder', 'Level written', 'Distinct labels'], nodeRows(doc), 'protection-node') +
    `<h3>Criteria</h3>` +
    htmlTable('The criteria of the search', ['Criterion', 'Value'], criteriaRows(doc), 'kv protection-criteria') +
    `<h3>Before and after</h3>` +
    `<p class="help">The original as audited, the node’s figures as the search predicted them, and the release as audited once written. The search predicts neither the verdict nor the uniques.</p>` +
    htmlTable('The original, the prediction and the release', ['Figure', 'Original', 'Predicted', 'Release'], figureRows(doc), 'protection-figures') +
    `<h3>Ladders in ARX's layout</h3>` +
    laddersHtml(doc, shareable) +
    `</section>`
  );
}
