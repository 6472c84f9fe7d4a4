// Special uniques (SUDA2 and DIS-SUDA, spec peer-measures.md Sec 1): the metrics
// `suda_score`, `suda_msu_records`, `suda_msu_share` and `suda_dis_score` of the core
// (crate/core/src/identity/suda.rs). The distribution of the scores as a bar chart, the
// variables that appear most in the minimal sample uniques, and the highest-scoring records
// with their sets (the drill-down). Shown only when the audit ran SUDA.

import { barHistogram, type Bin } from '../../charts/bar-histogram';
import { el, scrollTable } from '../../ui/dom';
import { explain } from '../../ui/explain';
import { count, percent, score } from '../../ui/format';
import { isRecord, metric, type Report } from '../../shared/report';
import { help, missingReason, section } from '../../ui/view-kit';

interface Contribution {
  column: string;
  msus: number;
  share: number;
}

interface TopRecord {
  row: number;
  values: Record<string, string | null>;
  score: number;
  dis: number;
  msus: string[][];
}

/** A SUDA score: 4 decimals, or from a million on as `1.12 × 10^17` (the weights are
 * factorials of the quasi-identifiers left out of a set: 19! with 20 of them). */
function sudaScore(x: number): string {
  if (!Number.isFinite(x) || Math.abs(x) < 1e6) return score(x);
  const [mantissa, exponent] = x.toExponential(2).split('e');
  return `${mantissa} × 10^${Number(exponent)}`;
}

/** Why the scores are as large as they are: the weight of a set of one value and of two with
 * these `q` quasi-identifiers (the core's `weights`; `qEff`: the q they were computed with,
 * at least 3), and the scores scaled by the first (1 = one value no other record has).
 * `factorial`: the weights are Elliot's full ones, (qEff − k)! for a set of k values. */
function scaleText(weights: number[], q: number, qEff: number, factorial: boolean, value: { mean: number; max: number }): string {
  const [one, two] = weights;
  if (!one || !(one > 0)) return '';
  const rule = factorial ? ' (with q quasi-identifiers a set of k values weighs (q − k)!)' : '';
  const counted = qEff !== q ? ` (counted as ${count(qEff)}, as SUDA counts fewer than three)` : '';
  return (
    `With ${count(q)} quasi-identifiers${counted} a set of one value weighs ${sudaScore(one)}${two !== undefined ? `, a set of two ${sudaScore(two)}` : ''}${rule}: ` +
    'the weights, and so the scores, grow combinatorially with the number of quasi-identifiers, so compare scores only between audits of the same quasi-identifiers. ' +
    `Scaled by the weight of one value (1 = as much as one value no other record has): mean ${score(value.mean / one)}, highest ${score(value.max / one)}.`
  );
}

const DIS_LABELS = ['0', '0 – 0.1', '0.1 – 0.2', '0.2 – 0.3', '0.3 – 0.4', '0.4 – 0.5', '0.5 – 0.6', '0.6 – 0.7', 'above 0.7'];

/** Records per band of scores: no MSU, then up to 8 bands (lo, hi] of equal width up to the
 * largest score. */
function scoreBins(histogram: { score: number; records: number }[]): Bin[] {
  const scored = histogram.filter((h) => h.score > 0);
  const zero = histogram.filter((h) => h.score <= 0).reduce((s, h) => s + h.records, 0);
  const bins: Bin[] = [{ label: 'no special unique (0)', records: zero }];
  if (!scored.length) return bins;
  const max = Math.max(...scored.map((h) => h.score));
  const n = Math.min(8, scored.length);
  const width = max / n;
  const counts = new Array<number>(n).fill(0);
  for (const h of scored) counts[Math.min(n - 1, Math.max(0, Math.ceil(h.score / width) - 1))] += h.records;
  counts.forEach((records, i) => bins.push({ label: `${sudaScore(i * width)} – ${sudaScore((i + 1) * width)}`, records }));
  return bins;
}

function contributionList(all: Contribution[]): HTMLElement {
  const list = [...all].sort((a, b) => b.share - a.share);
  const max = Math.max(0, ...list.map((c) => c.share));
  return el(
    'ol',
    { class: 'bars', id: 'suda-variables', 'aria-label': 'Share of the minimal sample uniques holding each quasi-identifier, largest first' },
    ...list.map((c) => {
      const fill = el('span', { class: 'bar-fill' });
      const width = max > 0 ? (c.share / max) * 100 : 0;
      fill.style.width = `${width}%`;
      if (width === 0) fill.classList.add('empty');
      return el(
        'li',
        { class: 'bar-row', 'data-attribute': c.column },
        el('span', { class: 'bar-label' }, c.column),
        el('span', { class: 'bar-track', 'aria-hidden': 'true' }, fill),
        el('span', { class: 'bar-value' }, el('strong', {}, percent(c.share)), el('span', { class: 'bar-detail' }, ` in ${count(c.msus)} sets`)),
      );
    }),
  );
}

function topTable(top: TopRecord[], qis: string[]): HTMLElement {
  const rows = top.map((t) => [
    count(t.row),
    sudaScore(t.score),
    score(t.dis),
    qis.map((q) => `${q} = ${t.values[q] ?? '(blank)'}`).join(', '),
    t.msus.map((s) => `{${s.join(', ')}}`).join(' '),
  ]);
  return el(
    'div',
    { id: 'suda-top' },
    scrollTable(
      'The highest-scoring records: their row, scores, values and special uniques',
      ['Row', 'SUDA score', 'DIS-SUDA', 'Values', 'Minimal sample uniques'],
      rows,
      [0, 1, 2],
    ),
  );
}

export function sudaView(report: Report): HTMLElement | null {
  const m = metric(report, 'suda_score');
  if (!m) return null;
  const title = 'Special uniques (SUDA)';
  if (m.status !== 'ok' || !isRecord(m.details)) return section(title, 'suda-title', el('p', {}, missingReason(report, 'suda_score') ?? ''));
  const d = m.details as Record<string, unknown>;
  const value = m.value as { min: number; mean: number; max: number };
  const records = metric(report, 'suda_msu_records')?.value as number | undefined;
  const share = metric(report, 'suda_msu_share')?.value as number | undefined;
  const dis = metric(report, 'suda_dis_score');
  const disValue = dis?.status === 'ok' ? (dis.value as { mean: number; max: number }) : null;
  const disHist = dis && isRecord(dis.details) && Array.isArray(dis.details.histogram) ? (dis.details.histogram as number[]) : [];
  const scores = Array.isArray(d.score_histogram) ? (d.score_histogram as { score: number; records: number }[]) : [];
  const contributions = Array.isArray(d.variable_contributions) ? (d.variable_contributions as Contribution[]) : [];
  const top = Array.isArray(d.top) ? (d.top as TopRecord[]) : [];
  const qis = report.params.quasi_identifiers;
  const maxSize = typeof d.max_msu_size === 'number' ? d.max_msu_size : qis.length;
  const weights = Array.isArray(d.weights) ? (d.weights as number[]) : [];
  const qEff = typeof d.q_eff === 'number' ? d.q_eff : qis.length;
  return section(
    title,
    'suda-title',
    el(
      'p',
      { class: 'help' },
      'A record is a special unique when a few of its values, together, belong to no other record: whoever knows those few facts about a person finds their record. ',
      `SUDA lists, for every record, the smallest such sets of values (its minimal sample uniques, up to ${maxSize} values) and scores it: small sets weigh far more than large ones. `,
      'DIS-SUDA turns the score into the chance that the record is also unique in the population, so that a match on it would be correct.',
    ),
    el(
      'p',
      { id: 'suda-summary' },
      `${count(records ?? 0)} records (${percent(share ?? 0)}) have at least one minimal sample unique. `,
      `SUDA score: mean ${sudaScore(value.mean)}, highest ${sudaScore(value.max)}. `,
      disValue ? `DIS-SUDA: mean ${score(disValue.mean)}, highest ${score(disValue.max)}.` : '',
    ),
    el('p', { id: 'suda-scale', class: 'help' }, scaleText(weights, qis.length, qEff, d.weights_scheme !== 'ihsn' && maxSize >= qis.length, value)),
    help(explain('suda_score'), ' ', explain('suda_dis_score')),
    el('h4', {}, 'How the scores are spread'),
    barHistogram(scoreBins(scores), 'suda-score-chart', 'Records per band of SUDA score'),
    disHist.length === DIS_LABELS.length
      ? el(
          'details',
          { class: 'more' },
          el('summary', {}, 'DIS-SUDA scores by band'),
          barHistogram(
            disHist.map((n, i) => ({ label: DIS_LABELS[i], records: n })),
            'suda-dis-chart',
            'Records per band of DIS-SUDA score',
          ),
        )
      : null,
    el('h4', {}, 'The variables that drive them'),
    el(
      'p',
      { class: 'help' },
      'How often each quasi-identifier is part of a minimal sample unique: coarsening or removing the first ones removes the most special uniques.',
    ),
    contributions.length ? contributionList(contributions) : el('p', {}, 'No record has a minimal sample unique.'),
    el('h4', {}, 'The highest-scoring records'),
    top.length
      ? topTable(top, qis)
      : el('p', {}, records ? 'The records are not listed in this report (a record-level list).' : 'No record has a minimal sample unique, so none is listed.'),
  );
}
