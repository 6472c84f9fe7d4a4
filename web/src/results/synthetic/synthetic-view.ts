// "Synthetic or perturbed release": the measures of SDNist's Deidentified Data Report and of
// SDMetrics' privacy metrics as the core computed them (spec synthetic.md; crate/core/src/
// synthetic), each with a sentence on what it means and what is good: the k-marginal score with
// its sampling-equivalent, unique exact matches and apparent matches, the pMSE with its
// propensity histogram, the correlation differences as heat maps, the PCA scatter on the
// original's axes, the regression when set, the DCR distributions against a random table and
// against the holdout, and CAP. A measure that could not run says why. Reads the report only.

import { barHistogram } from '../../charts/bar-histogram';
import { heatLegend, heatmap } from '../../charts/heatmap';
import { overlayChart } from '../../charts/overlay-chart';
import { scatterChart } from '../../charts/scatter-chart';
import { el, scrollTable, type Child } from '../../ui/dom';
import { count, decimal, percent, plural, score } from '../../ui/format';
import type { Report } from '../../shared/report';
import {
  correlationMatrices,
  finite,
  labels,
  pairedHistogram,
  pcaComparison,
  pmseNull,
  propensityHistogram,
  regressionLines,
  samplingEquivalent,
  syntheticOf,
  worstPairs,
  type PairedHistogram,
  type SyntheticId,
  type SyntheticMetric,
} from '../../shared/synthetic-data';
import { fact, facts, help, reportFact, section, type Chart, type View } from '../../ui/view-kit';
import './synthetic.css';

/** The share of records per bin, from counts. */
const shares = (counts: number[]): number[] => {
  const total = counts.reduce((a, b) => a + b, 0);
  return counts.map((c) => (total > 0 ? c / total : 0));
};

/** `counts` summed `by` bins at a time (100 propensity bins drawn as 20). */
const merged = (counts: number[], by: number): number[] =>
  Array.from({ length: Math.ceil(counts.length / by) }, (_, i) => counts.slice(i * by, (i + 1) * by).reduce((a, b) => a + b, 0));

/** Labels of `n` equal bins over [0, 1]: "0.00–0.05". */
const unitBins = (n: number): string[] => Array.from({ length: n }, (_, i) => `${decimal(i / n, 2)}–${decimal((i + 1) / n, 2)}`);

/** A histogram pair to draw once the panel is visible. */
interface Pending {
  host: HTMLElement;
  column: string;
  histogram: PairedHistogram;
  names: [string, string];
  bins: number;
}

function block(id: string, title: string, ...body: Child[]): HTMLElement {
  return el('div', { class: 'synthetic-block', id: `synthetic-${id}` }, el('h4', {}, title), ...body);
}

/** The measure's value as a fact (`reportFact`: why it is missing when it is). */
function valueFact(report: Report, m: SyntheticMetric | undefined, id: SyntheticId, label: string, text: (v: number) => string, sentence: string): HTMLElement {
  return reportFact(report, id, label, m?.value == null ? '—' : text(m.value), sentence);
}

function kMarginal(report: Report, m: SyntheticMetric | undefined): HTMLElement {
  const d = m?.details ?? {};
  const se = samplingEquivalent(d);
  const worst = worstPairs(d, 3);
  const grouped = finite(d.score_grouped);
  return block(
    'k-marginal',
    'How well the release keeps the pairs of columns (k-marginal)',
    facts(
      valueFact(
        report,
        m,
        'k_marginal',
        'k-marginal score',
        (v) => `${decimal(v, 0)} of 1,000`,
        `NIST's score over every pair of columns: 1,000 when each two-column distribution of the release equals the original's, 0 when none overlaps. ${grouped !== null ? `Within each group of ${String(d.group_by)}; ${decimal(finite(d.score_ungrouped), 0)} over the whole table.` : ''}`,
      ),
      se?.percent != null
        ? fact(
            'k_marginal',
            'Sampling equivalent',
            `${se.percent} % of the original`,
            `The release keeps the pairs of columns about as well as a random sample of ${se.percent} % of the original records would: the higher, the closer. A release that keeps them better than a 90 % sample may be too close to the original.`,
          )
        : null,
    ),
    worst.length > 0
      ? help(
          `The pairs that differ most: ${worst.map((p) => `${p.columns.join(' × ')} (${decimal(p.l1, 2)} of 2)`).join(', ')}. Each difference is the total of the absolute differences of the pair’s shares, from 0 (equal) to 2 (no overlap).`,
        )
      : null,
    se && se.samples.length > 0
      ? el(
          'details',
          { class: 'synthetic-samples' },
          el('summary', {}, 'The score of each sample of the original'),
          scrollTable(
            'k-marginal score of random samples of the original',
            ['Sample', 'Records', 'Score'],
            se.samples.map((s) => [`${s.percent} %`, count(s.rows), decimal(s.score, 0)]),
            [1, 2],
          ),
        )
      : null,
  );
}

function matches(report: Report, uem: SyntheticMetric | undefined, amd: SyntheticMetric | undefined): HTMLElement {
  const u = uem?.details ?? {};
  const a = amd?.details ?? {};
  const histogram = Array.isArray(a.histogram) ? a.histogram.map((x) => finite(x) ?? 0) : [];
  const compared = labels(a.compared);
  return block(
    'matches',
    'Original records found in the release',
    facts(
      valueFact(
        report,
        uem,
        'unique_exact_matches',
        'Unique records copied',
        (v) => percent(v / 100),
        `${count(finite(u.matched))} of the original’s ${plural(finite(u.unique_target_records) ?? 0, 'unique record')} appear in the release with every value unchanged. A copied unique record is a real person’s full row: 0 % is what a synthetic release should show.`,
      ),
      valueFact(
        report,
        amd,
        'apparent_match',
        'Apparent matches',
        (v) => percent(v / 100),
        `${plural(finite(a.matched) ?? 0, 'original record')} ${finite(a.matched) === 1 ? 'is' : 'are'} unique on the quasi-identifiers both in the original and in the release, with the same values: an attacker would take them for the same person. The histogram says how many of their other columns agree; few agreeing columns mean the match is only apparent.`,
      ),
    ),
    histogram.length > 0 && histogram.some((h) => h > 0)
      ? barHistogram(
          histogram.map((records, i) => ({ label: `${i * 10}–${(i + 1) * 10} %`, records })),
          'apparent-match-histogram',
          `Apparent matches by the share of the other columns (${compared.join(', ')}) that agree`,
        )
      : null,
  );
}

function pmse(report: Report, m: SyntheticMetric | undefined, pending: Pending[]): HTMLElement {
  const d = m?.details ?? {};
  const max = finite(d.max);
  const nul = pmseNull(d);
  const hist = propensityHistogram(d);
  const host = el('div', { class: 'chart', id: 'pmse-histogram' });
  if (hist)
    pending.push({
      host,
      column: 'the propensity to be a released record',
      histogram: { first: merged(hist.first, 5), second: merged(hist.second, 5) },
      names: ['Original', 'Released'],
      bins: 20,
    });
  return block(
    'pmse',
    'Can the release be told apart from the original? (propensity)',
    facts(
      valueFact(
        report,
        m,
        'pmse',
        'pMSE',
        (v) => score(v),
        `A classification tree tries to tell released records from original ones. 0: it cannot; ${max !== null ? score(max) : 'c(1 − c)'}: it separates them completely. The lower, the more alike the tables.`,
      ),
      nul
        ? fact(
            'pmse',
            'Against random labels',
            nul.ratio === null ? '—' : `${decimal(nul.ratio, 2)} ×`,
            `The pMSE divided by its mean (${score(nul.mean)}) when the labels “original” and “released” are shuffled ${plural(nul.perms, 'time')}: near 1, the tree tells the release apart no better than a random split of the same records; well above 1, it finds what differs.`,
          )
        : null,
    ),
    hist
      ? el(
          'div',
          { class: 'synthetic-chart' },
          help(
            'The share of each table’s records by the tree’s propensity: both piled at 0.5 is best; the original near 0 and the release near 1 means they differ.',
          ),
          host,
        )
      : null,
  );
}

/** The difference maps of Pearson and Kendall (released − original). */
function correlations(report: Report, m: SyntheticMetric | undefined): HTMLElement {
  const d = m?.details ?? {};
  const names = labels(d.columns);
  const maps = (['pearson', 'kendall'] as const).flatMap((kind) => {
    const c = correlationMatrices(d, kind);
    if (!c || c.diff.length === 0) return [];
    const caption = `${kind === 'pearson' ? 'Pearson' : 'Kendall'}: released − original`;
    return [
      el(
        'figure',
        { class: 'heatmap-figure' },
        heatmap({ id: `synthetic-${kind}-difference`, caption, names, matrix: c.diff, full: 0.5, signed: true }),
        el(
          'figcaption',
          {},
          heatLegend('0.5'),
          el(
            'span',
            { class: 'visually-hidden' },
            'Blue cells are correlations lower in the release, red cells higher ones; the darker, the larger the change.',
          ),
        ),
      ),
    ];
  });
  const worst = correlationMatrices(d, 'pearson')?.worst ?? null;
  return block(
    'correlations',
    'How the columns move together',
    facts(
      valueFact(
        report,
        m,
        'correlation_difference',
        'Mean correlation change',
        (v) => decimal(v, 3),
        `The mean absolute change of the Pearson correlation over the pairs of columns (labels coded by their order): 0 when the release keeps every correlation, up to 2.${worst ? ` The largest change: ${worst.pair.join(' × ')} (${decimal(worst.value, 2)}).` : ''}`,
      ),
    ),
    maps.length > 0 ? el('div', { class: 'heatmaps' }, ...maps) : null,
    maps.length > 0
      ? help(
          'Each cell is the change of one pair’s correlation (Pearson: straight-line; Kendall: order), from −2 to +2; “—” marks a column that does not vary in one of the tables.',
        )
      : null,
  );
}

function pca(report: Report, m: SyntheticMetric | undefined): HTMLElement {
  const p = pcaComparison(m?.details ?? {});
  const axis = (i: number) => `PC${i + 1}${p.explained[i] !== undefined ? ` (${percent(p.explained[i])})` : ''}`;
  return block(
    'pca',
    'The shape of the data (principal components)',
    facts(
      valueFact(
        report,
        m,
        'pca_comparison',
        'Spread kept',
        (v) => score(v),
        'The original’s main directions of variation (principal axes), and how much the release spreads along each compared with the original: 1 when it spreads alike on every axis, lower when it is narrower or wider.',
      ),
    ),
    p.explained.length > 0
      ? scrollTable(
          'Variance along the original’s principal axes',
          ['Axis', 'Share of the original’s variance', 'Original', 'Released', 'Main columns'],
          p.explained.map((e, i) => [
            `PC${i + 1}`,
            percent(e),
            decimal(p.varianceOriginal[i], 3),
            decimal(p.varianceReleased[i], 3),
            (p.topFeatures[i] ?? []).slice(0, 3).join(', '),
          ]),
          [1, 2, 3],
        )
      : null,
    p.scatter
      ? el(
          'div',
          { class: 'synthetic-chart' },
          help(
            'Each dot is a record on the first two axes, scaled to the original’s range: the two clouds should have the same shape. A shareable report leaves the dots out.',
          ),
          scatterChart({ id: 'pca-scatter', original: p.scatter.original, released: p.scatter.released, xLabel: axis(0), yLabel: axis(1) }),
        )
      : null,
  );
}

function regression(report: Report, m: SyntheticMetric | undefined): HTMLElement | null {
  if (!m || m.metric.reason === 'not_configured') return null;
  const lines = regressionLines(m.details);
  const line = (side: 'original' | 'released'): string => {
    const f = lines[side];
    return f ? `y = ${decimal(f.slope, 3)} x ${f.intercept < 0 ? '−' : '+'} ${decimal(Math.abs(f.intercept), 3)}` : 'none';
  };
  return block(
    'regression',
    'A regression line',
    facts(
      valueFact(
        report,
        m,
        'linear_regression',
        'Slope change',
        (v) => decimal(v, 4),
        `The least-squares line in the original (${line('original')}) and in the release (${line('released')}): the smaller the change of slope, the more the release keeps the relation.`,
      ),
    ),
  );
}

function dcr(report: Report, base: SyntheticMetric | undefined, over: SyntheticMetric | undefined, pending: Pending[]): HTMLElement {
  const b = base?.details ?? {};
  const o = over?.details ?? {};
  const estimate = b.estimate === true || o.estimate === true;
  const charts: HTMLElement[] = [];
  const chart = (id: string, text: string, histogram: PairedHistogram | null, names: [string, string]) => {
    if (!histogram) return;
    const host = el('div', { class: 'chart', id });
    pending.push({ host, column: 'the distance to the closest original record', histogram, names, bins: histogram.first.length });
    charts.push(el('div', { class: 'synthetic-chart' }, help(text), host));
  };
  chart(
    'dcr-baseline-histogram',
    'Distance of each released record, and of each record of a random table, to its closest original record (0 = a copy, 1 = as far as the columns allow).',
    pairedHistogram(b.histogram_released, b.histogram_random),
    ['Released', 'Random'],
  );
  chart(
    'dcr-holdout-histogram',
    'Distance of each released record to its closest record in the original (training) table and in the holdout: the two should look alike.',
    pairedHistogram(o.histogram_training, o.histogram_holdout),
    ['To the original', 'To the holdout'],
  );
  return block(
    'dcr',
    'How close released records come to real ones (distance to closest record)',
    facts(
      valueFact(
        report,
        base,
        'dcr_baseline_protection',
        'Against a random table',
        (v) => score(v),
        `The median distance of released records to their closest original record (${score(finite(b.median_dcr_released))}), divided by that of random records (${score(finite(b.median_dcr_random))}): 1 when the release is as far from real people as random data, near 0 when it sits on top of them.`,
      ),
      valueFact(
        report,
        over,
        'dcr_overfitting_protection',
        'Against the holdout',
        (v) => score(v),
        `${percent(finite(o.closer_to_training))} of released records are closer to the original than to the holdout (records not used to make the release): about half is expected of a release that learned the population, not the people; 1 is best, 0 when every released record sits closer to the original.${o.holdout_small === true ? ' The holdout is less than half the original, which pulls records toward the original.' : ''}`,
      ),
    ),
    estimate
      ? el('p', { class: 'note' }, 'On a seeded sample of the released records (an estimate): the full comparison would exceed the limit of pairs of records.')
      : null,
    ...charts,
  );
}

function cap(report: Report, m: SyntheticMetric | undefined): HTMLElement {
  const d = m?.details ?? {};
  return block(
    'cap',
    'Can the release give away a sensitive value? (CAP)',
    facts(
      valueFact(
        report,
        m,
        'disclosure_protection',
        'Disclosure protection',
        (v) => score(v),
        `An attacker who knows a person’s ${labels(d.known).join(', ')} looks them up in the release and guesses their ${labels(d.sensitive).join(', ')}. 1 when the guesses are no better than a blind guess (protection ${score(finite(d.baseline_protection))}); the lower, the more the release discloses. Scored on ${plural(finite(d.scored_rows) ?? 0, 'original record')} whose known values occur in the release.`,
      ),
    ),
  );
}

/** The section, when the report holds the synthetic measures. */
export function syntheticView(report: Report): View | null {
  const s = syntheticOf(report);
  if (s.size === 0) return null;
  const pending: Pending[] = [];
  const holdout = s.get('dcr_overfitting_protection')?.metric.reason !== 'no_holdout';
  const node = section(
    'Synthetic or perturbed release',
    'synthetic-title',
    help(
      'The measures NIST’s SDNist report and SDV’s SDMetrics compute for a synthetic or noise-added release, on this release and its original table',
      holdout ? ' and holdout. ' : '. Give a holdout table (records not used to make the release) for the overfitting measure. ',
      'The k-marginal, propensity, correlations and components say how much of the original the release keeps (utility); the matches, distances and CAP how close it comes to real people (privacy).',
    ),
    kMarginal(report, s.get('k_marginal')),
    matches(report, s.get('unique_exact_matches'), s.get('apparent_match')),
    pmse(report, s.get('pmse'), pending),
    correlations(report, s.get('correlation_difference')),
    pca(report, s.get('pca_comparison')),
    regression(report, s.get('linear_regression')),
    dcr(report, s.get('dcr_baseline_protection'), s.get('dcr_overfitting_protection'), pending),
    cap(report, s.get('disclosure_protection')),
  );
  node.id = 'synthetic-section';
  return {
    nodes: [node],
    draw: (): Chart[] =>
      pending.map((p) =>
        overlayChart(p.host, {
          column: p.column,
          labels: unitBins(p.bins),
          original: shares(p.histogram.first),
          released: shares(p.histogram.second),
          names: p.names,
        }),
      ),
  };
}
