// Balance for one release (spec balance.md): the linkage risk against the reference table
// (R_external with its match rate, the unique-record variant and the matching-probability
// diagnostic), the overall risk R and safety, and the RUT score that weighs utility against
// safety, with the weight presets and a custom alpha and the score as alpha sweeps 0.2..0.8.
// Shown when a population table or an original table was given. Changing the weights re-runs
// only the core's `choose` (in the worker) with this release as the single candidate.

import { choiceControls } from './balance-controls';
import {
  PRESETS,
  PRESET_INFO,
  choiceOf,
  externalRisk,
  matchingProbability,
  okNumber,
  overallRisk,
  presetOf,
  rutResult,
  sweepOf,
  type ChooseFn,
  type ChoiceParams,
  type OverallRisk,
  type RutResult,
} from '../../shared/balance-data';
import { el, scrollTable, type Child } from '../../ui/dom';
import { explain, reasonText } from '../../ui/explain';
import { count, decimal, percent, plural, score } from '../../ui/format';
import { metric, type Report } from '../../shared/report';
import { rutSweepChart, type SweepChart } from '../../charts/rut-sweep-chart';
import { fact, facts, help, missingReason, withInterval, type Chart, type View } from '../../ui/view-kit';
import { metricInterval } from '../../shared/suite';

function card(id: string, title: string, value: string, direction: string, sentence: Child): HTMLElement {
  return el(
    'article',
    { class: 'card', 'data-metric': id },
    el('h5', { class: 'card-title' }, title),
    el('p', { class: 'card-value' }, value),
    el('p', { class: 'card-sub' }, direction),
    el('p', { class: 'card-explain' }, sentence),
  );
}

function externalPart(report: Report): Child[] {
  const ext = externalRisk(report);
  const head = el('h4', { class: 'subhead' }, 'Linkage with the population / reference table');
  if (!ext) {
    const m = metric(report, 'r_external');
    const text =
      !m || m.reason === 'no_external_table'
        ? 'No population table was given, so the risk of linking the release to outside data is not measured and the overall risk R below is the risk inside the file alone. Add a population table in step 2 to measure it.'
        : (missingReason(report, 'r_external') ?? '');
    return [head, el('p', { class: 'note', id: 'balance-no-external' }, text)];
  }
  const matched =
    ext.matched !== null && ext.records !== null
      ? `${count(ext.matched)} of ${plural(ext.records, 'record')} ${ext.matched === 1 ? 'has a look-alike' : 'have look-alikes'}`
      : 'Records with look-alikes';
  const rows = ext.externalRows !== null ? ` among the ${plural(ext.externalRows, 'row')} of the reference table` : ' in the reference table';
  const on = ext.attributes.length ? `, matched on ${ext.attributes.join(', ')}` : '';
  const prob = matchingProbability(report);
  const corr = matchingProbability(report, 'r_external_correlation');
  // The factors in the order of the quasi-identifiers matched.
  const order = (a: string) => (ext.attributes.includes(a) ? ext.attributes.indexOf(a) : ext.attributes.length);
  prob?.perAttribute.sort(([a], [b]) => order(a) - order(b));
  return [
    head,
    facts(
      withInterval(
        fact('r_external', 'External linkage risk (R_external)', score(ext.value), `${explain('r_external')}`),
        metricInterval(metric(report, 'r_external')),
        score,
      ),
      fact(
        'r_external_match_rate',
        'Records with a look-alike in the reference table',
        percent(ext.matchRate),
        `${matched}${rows}${on}. ${explain('r_external_match_rate')}`,
      ),
      okNumber(report, 'r_unique') !== null
        ? fact('r_unique', 'Linkage risk of the records unique in the file', score(okNumber(report, 'r_unique')), explain('r_unique'))
        : fact('r_unique', 'Linkage risk of the records unique in the file', '—', missingReason(report, 'r_unique') ?? ''),
      prob
        ? fact(
            'r_external_probability',
            'Chance agreement on every quasi-identifier (diagnostic)',
            prob.value < 1e-4 ? prob.value.toExponential(2) : score(prob.value),
            `${prob.perAttribute.length ? `The product of ${prob.perAttribute.map(([a, v]) => `${a} ${score(v)}`).join(' × ')}. ` : ''}${explain('r_external_probability')}`,
          )
        : fact('r_external_probability', 'Chance agreement on every quasi-identifier (diagnostic)', '—', missingReason(report, 'r_external_probability') ?? ''),
      corr
        ? fact(
            'r_external_correlation',
            'Likeness of the value frequencies (diagnostic)',
            score(corr.value),
            `${corr.perAttribute.length ? `Per quasi-identifier: ${corr.perAttribute.map(([a, v]) => `${a} ${score(v)}`).join(', ')}. ` : ''}${explain('r_external_correlation')}`,
          )
        : fact('r_external_correlation', 'Likeness of the value frequencies (diagnostic)', '—', missingReason(report, 'r_external_correlation') ?? ''),
    ),
    ext.notInExternal.length
      ? el('p', { class: 'note' }, `The reference table lacks ${ext.notInExternal.join(', ')}; records were matched on the other quasi-identifiers only.`)
      : null,
  ];
}

function formula(r: OverallRisk): string {
  const ri = `R_internal ${score(r.rInternal)}`;
  const re = `R_external ${score(r.rExternal)}`;
  switch (r.combination) {
    case 'max':
      return `R = the larger of ${ri} and ${re}.`;
    case 'weighted': {
      const w = r.weightInternal ?? 0.5;
      return `R = ${decimal(w, 2)} × ${ri} + ${decimal(1 - w, 2)} × ${re}.`;
    }
    case 'sum':
      return `R = ${ri} + ${re}, at most 1.`;
    default:
      return `R = ${ri}: without a reference table only the risk inside the file counts.`;
  }
}

/** The presets of Table 4 with the release's score under each; the chosen one marked. */
function presetTable(rut: RutResult): { node: HTMLElement; mark(alpha: number): void } {
  const rows = PRESETS.map((p) => [
    PRESET_INFO[p].label,
    PRESET_INFO[p].context,
    decimal(PRESET_INFO[p].alpha, 1),
    decimal(1 - PRESET_INFO[p].alpha, 1),
    score(rut.presets[p]),
  ]);
  const node = scrollTable('RUT score under each weight preset', ['Preset', 'Use', 'α (utility)', 'β (safety)', 'RUT'], rows, [2, 3, 4]);
  node.id = 'rut-presets';
  const trs = [...node.querySelectorAll('tbody tr')];
  trs.forEach((tr, i) => tr.setAttribute('data-preset', PRESETS[i]!));
  const mark = (alpha: number) => {
    const chosen = presetOf(alpha);
    for (const tr of trs) tr.classList.toggle('chosen-row', tr.getAttribute('data-preset') === chosen);
  };
  return { node, mark };
}

/** The balance section, or null when neither a reference table nor an original was given. */
export function balanceView(report: Report, releaseLabel: string, choose: ChooseFn | null): View | null {
  const risk = overallRisk(report);
  if (!risk) return null;
  const withExternal = metric(report, 'r_external')?.reason !== 'no_external_table';
  const withOriginal = report.metrics.some((m) => m.family.startsWith('utility'));
  if (!withExternal && !withOriginal) return null;

  const rut = rutResult(report);
  const rutCard = card(
    'rut',
    'RUT score',
    rut ? score(rut.value) : '—',
    rut ? `At α = ${decimal(rut.alpha, 2)} (utility), β = ${decimal(1 - rut.alpha, 2)} (safety)` : 'Higher = better balance',
    rut ? `${explain('rut')} Here U = ${score(rut.utility)} and 1 − R = ${score(1 - rut.risk)}.` : (missingReason(report, 'rut') ?? ''),
  );
  if (rut) rutCard.setAttribute('data-alpha', String(rut.alpha));
  const cards = el(
    'div',
    { class: 'cards balance-cards' },
    card('risk_r', 'Overall risk R', score(risk.risk), 'Lower = safer', `${formula(risk)} ${explain('risk_r')}`),
    card('safety', 'Safety 1 − R', score(risk.safety), 'Higher = safer', explain('safety')),
    rutCard,
  );

  const sweepHost = el('div', { class: 'chart', id: 'rut-sweep' });
  const live = el('p', { class: 'rut-live', id: 'rut-live', role: 'status' });
  let sweepChart: SweepChart | null = null;
  let destroyed = false;
  let latest = 0;
  const presets = rut ? presetTable(rut) : null;
  presets?.mark(rut!.alpha);

  /** Runs `choose` with this release alone: the score at `p.rut_alpha` and the sweep. */
  const update = async (p: ChoiceParams) => {
    if (!rut || !choose) return;
    const ticket = ++latest;
    let results: Awaited<ReturnType<typeof choose>>;
    try {
      results = await choose([{ name: releaseLabel, risk_r: rut.risk, utility_u: rut.utility }], { rut_alpha: p.rut_alpha });
    } catch (e) {
      if (ticket === latest) live.textContent = `The score could not be computed: ${(e as { message?: string }).message ?? String(e)}`;
      return;
    }
    if (ticket !== latest || destroyed) return;
    const choice = choiceOf(results);
    const value = choice?.rut[0];
    if (value === undefined) return;
    rutCard.querySelector('.card-value')!.textContent = score(value);
    rutCard.querySelector('.card-sub')!.textContent = `At α = ${decimal(p.rut_alpha, 2)} (utility), β = ${decimal(1 - p.rut_alpha, 2)} (safety)`;
    rutCard.setAttribute('data-alpha', String(p.rut_alpha));
    const preset = presetOf(p.rut_alpha);
    live.textContent = `${preset ? `${PRESET_INFO[preset].label}: ` : ''}RUT = ${decimal(p.rut_alpha, 2)} × U ${score(rut.utility)} + ${decimal(1 - p.rut_alpha, 2)} × (1 − R) ${score(1 - rut.risk)} = ${score(value)}.`;
    presets?.mark(p.rut_alpha);
    // The sweep does not depend on the weights: drawn once, then only its marker moves.
    if (sweepChart) sweepChart.setAlpha(p.rut_alpha);
    else {
      const sweep = sweepOf(results);
      if (sweep && sweep.rows.length) sweepChart = rutSweepChart(sweepHost, [releaseLabel], sweep.rows, p.rut_alpha);
    }
  };
  const controls = rut && choose ? choiceControls('balance', rut.alpha, false, (p) => void update(p)) : null;

  const rutPart: Child[] = rut
    ? [
        el('h4', { class: 'subhead' }, 'RUT score: utility against safety'),
        help(
          'One number for the trade-off: the weight α says how much utility counts, β = 1 − α how much safety counts. Pick the weights that fit the use of the release; ',
          'the scores are recomputed without reading the files again.',
        ),
        controls?.node,
        live,
        presets?.node,
        facts(
          fact('rut_f1', `Linear trade-off at the audit’s α = ${decimal(rut.alpha, 2)}`, score(okNumber(report, 'rut_f1')), explain('rut_f1')),
          fact(
            'rut_ratio',
            'Utility per unit of risk (U / R)',
            okNumber(report, 'rut_ratio') === null ? '—' : decimal(okNumber(report, 'rut_ratio'), 4),
            okNumber(report, 'rut_ratio') === null ? (missingReason(report, 'rut_ratio') ?? '') : explain('rut_ratio'),
          ),
        ),
        el('h4', { class: 'subhead' }, 'The score as the weight of utility changes'),
        help(
          'The RUT score of this release as the weight of utility α moves from 0.2 to 0.8: a straight line, α × U + (1 − α) × (1 − R), rising when the release keeps more utility than safety. The dashed line marks the chosen weight.',
        ),
        sweepHost,
      ]
    : [
        el(
          'p',
          { class: 'note', id: 'balance-no-utility' },
          `No RUT score: ${reasonText(metric(report, 'rut')?.reason)}. Give the original table in step 2 to measure the utility U and weigh it against the risk.`,
        ),
      ];

  const warning = metric(report, 'risk_r')?.warnings.includes('risk_without_external')
    ? el('p', { class: 'help' }, `Note: ${reasonText('risk_without_external')}.`)
    : null;

  const section = el(
    'section',
    { class: 'result-section balance', 'aria-labelledby': 'balance-title', id: 'balance-section' },
    el('h3', { id: 'balance-title' }, 'Balance: risk against utility'),
    help(
      'How exposed the release is to linkage with outside data, its overall risk, and one score that weighs that risk against the utility the release kept (the RUT method).',
    ),
    ...externalPart(report),
    el('h4', { class: 'subhead' }, 'Overall risk and the balance score'),
    cards,
    warning,
    ...rutPart,
  );

  const draw = (): Chart[] => {
    if (rut && choose) void update({ rut_alpha: rut.alpha });
    return [
      {
        destroy() {
          destroyed = true;
          sweepChart?.destroy();
        },
      },
    ];
  };
  return { nodes: [section], draw };
}
