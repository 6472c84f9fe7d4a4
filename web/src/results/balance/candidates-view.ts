// Step 3 of a comparison: several candidate releases of one original, each audited with the
// same roles and settings. The best candidate with the reason (the core's
// `rut_constrained_choice`), the weights and limits that decide it, every measure per candidate
// in one table, the risk-utility map with the Pareto frontier and the RUT score of each
// candidate as alpha sweeps 0.2..0.8 (`rut_alpha_sweep`). Changing the weights or limits re-runs
// only the core's `choose` in the worker, never the audits.

import { accountText, partialNote } from '../../ui/account';
import { choiceControls } from './balance-controls';
import { DEFAULT_ALPHA, PRESET_INFO, choiceOf, presetOf, sweepOf, type Choice, type ChooseFn, type ChoiceParams, type Sweep } from '../../shared/balance-data';
import { MEASURES, cellOf, entries, infeasibleBecause, type Entry } from './candidates-data';
import { el, type Child } from '../../ui/dom';
import { explain, reasonText } from '../../ui/explain';
import { count, decimal, plural, score } from '../../ui/format';
import type { AuditConfig, MetricResult, Report } from '../../shared/report';
import { NARROW, riskUtilityMap, type MapInput } from '../../charts/risk-utility-map';
import { candidateClass, rutSweepChart, type SweepChart } from '../../charts/rut-sweep-chart';
import { help, section } from '../../ui/view-kit';

export interface CompareInputs {
  /** The candidates' file names, in the order they were given. */
  names: string[];
  /** Their sizes (the account of each file compares the bytes read with it). */
  sizes: number[];
  reports: Report[];
  original: string | null;
  reference: string | null;
  config: AuditConfig;
  choose: ChooseFn;
  /** Saves the comparison as JSON (`doc` in the CLI's `compare --json` layout). */
  onDownload: (doc: object) => void;
  /** Saves the comparison as it is shown, as one printable HTML file (report-html.ts). */
  onDownloadHtml: () => void;
}

let teardown: (() => void) | null = null;

export function clearCandidates(): void {
  teardown?.();
  teardown = null;
}

const swatch = (i: number) => el('span', { class: `key-swatch ${candidateClass(i)}`, 'aria-hidden': 'true' });

function alphaWords(alpha: number): string {
  const preset = presetOf(alpha);
  return `α = ${decimal(alpha, 2)} (utility) and β = ${decimal(1 - alpha, 2)} (safety)${preset ? `, the “${PRESET_INFO[preset].label}” preset` : ''}`;
}

/** The measures table: rows = measures, columns = candidates; the chosen column marked. */
function measuresTable(list: Entry[]): { node: HTMLElement; update(choice: Choice | null, scored: Entry[], crowned: string | null): void } {
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col' }, 'Measure'),
    el('th', { scope: 'col' }, 'Better'),
    ...list.map((e, i) => el('th', { scope: 'col', class: 'num candidate-col', 'data-candidate': e.name }, swatch(i), e.name)),
  );
  const rows: HTMLElement[] = [];
  let group = '';
  for (const m of MEASURES) {
    const cells = list.map((e) => cellOf(e.report, m));
    if (!cells.some((c) => c && c.number !== null)) continue;
    if (m.group !== group) {
      group = m.group;
      rows.push(el('tr', { class: 'group-row' }, el('th', { scope: 'colgroup', colspan: list.length + 2 }, group)));
    }
    rows.push(
      el(
        'tr',
        { 'data-metric': m.id },
        el('th', { scope: 'row' }, el('span', { class: 'measure-name' }, m.label), el('span', { class: 'measure-explain' }, explain(m.id))),
        el('td', { class: 'better' }, m.better ?? '—'),
        ...cells.map((c, i) =>
          el('td', { class: 'num', 'data-candidate': list[i]!.name, 'data-value': c?.number ?? null, title: c?.missing ?? null }, c?.text ?? '—'),
        ),
      ),
    );
  }
  // The RUT score at the chosen weights, filled in by `choose`.
  const rutLabel = el('span', { class: 'measure-name' }, 'RUT score');
  const rutCells = list.map((e) => el('td', { class: 'num', 'data-candidate': e.name }, '…'));
  rows.push(
    el('tr', { class: 'group-row' }, el('th', { scope: 'colgroup', colspan: list.length + 2 }, 'Balance at the chosen weights')),
    el(
      'tr',
      { 'data-metric': 'rut' },
      el('th', { scope: 'row' }, rutLabel, el('span', { class: 'measure-explain' }, explain('rut'))),
      el('td', { class: 'better' }, 'higher'),
      ...rutCells,
    ),
  );
  const table = el(
    'table',
    { id: 'candidates-table', class: 'candidates-table' },
    el('caption', { class: 'visually-hidden' }, 'Every measure per candidate'),
    el('thead', {}, head),
    el('tbody', {}, ...rows),
  );
  const node = el('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Every measure per candidate' }, table);
  const update = (choice: Choice | null, scored: Entry[], crowned: string | null) => {
    rutLabel.textContent = choice ? `RUT score at α = ${decimal(choice.alpha, 2)}` : 'RUT score';
    for (const [i, e] of list.entries()) {
      const j = scored.indexOf(e);
      const v = choice && j >= 0 ? choice.rut[j] : undefined;
      rutCells[i]!.textContent = v === undefined ? '—' : score(v);
      if (v !== undefined) rutCells[i]!.setAttribute('data-value', String(v));
      else rutCells[i]!.removeAttribute('data-value');
    }
    for (const cell of table.querySelectorAll<HTMLElement>('[data-candidate]')) {
      cell.classList.toggle('chosen', crowned !== null && crowned === cell.getAttribute('data-candidate'));
    }
  };
  return { node, update };
}

/** Why a candidate has no risk R or utility U, in words: the metric's reason, or that it was
 * never measured (no quasi-identifiers: no risk at all). */
function missingWhy(e: Entry): string {
  const m = e.report.metrics.find((x) => x.id === e.missing);
  if (m) return `could not be computed (${reasonText(m.reason)})`;
  if (e.missing === 'risk_r' && e.report.params.quasi_identifiers.length === 0) return 'was not measured: no column is a quasi-identifier';
  return 'was not reported';
}

/** Every scored candidate has the highest risk there is. */
const allAtFullRisk = (scored: Entry[]) => scored.length > 0 && scored.every((e) => e.candidate!.risk_r >= 1);

/** The best candidate in words, with the candidates that were not eligible and why. */
function verdict(choice: Choice | null, list: Entry[], scored: Entry[], sweep: Sweep | null): HTMLElement {
  const box = el('div', { class: 'best-candidate', id: 'best-candidate', role: 'status' });
  const excluded = list.filter((e) => !e.candidate);
  const excludedNotes = excluded.map((e) =>
    el(
      'li',
      { 'data-candidate': e.name, class: 'excluded' },
      `${e.name} was left out: its ${e.missing === 'utility_u' ? 'utility U' : 'risk R'} ${missingWhy(e)}.`,
    ),
  );
  if (!choice) {
    box.classList.add('none');
    box.setAttribute('data-candidate', '');
    const noQi = list.length > 0 && list.every((e) => e.report.params.quasi_identifiers.length === 0);
    box.append(
      el('p', { class: 'best-title' }, noQi ? 'No candidate can be chosen without quasi-identifiers.' : 'No candidate could be scored.'),
      ...(noQi
        ? [
            el(
              'p',
              {},
              'The choice weighs each release’s utility against its risk, and the risk is measured on the quasi-identifiers: mark the columns an attacker could know as quasi-identifiers in step 2 and compare again. The utility of each candidate is in the table below.',
            ),
          ]
        : []),
      // Without quasi-identifiers every candidate lacks R for the same reason, said above.
      el('ul', { class: 'best-notes' }, ...(noQi ? [] : excludedNotes)),
    );
    return box;
  }
  const infeasible = scored.filter((e) => !choice.feasible.includes(e.name));
  box.setAttribute('data-candidate', choice.chosen ?? '');
  box.classList.toggle('none', choice.chosen === null || allAtFullRisk(scored));
  if (choice.chosen !== null && allAtFullRisk(scored)) {
    // Crowning one would read as "safe to share": say what R = 1 means instead.
    box.setAttribute('data-verdict', 'all-at-full-risk');
    box.append(
      el('p', { class: 'best-title' }, 'No candidate is safe to share: every one has risk R = 1.'),
      el(
        'p',
        {},
        `R = 1 is the highest risk there is: an attacker is expected to re-identify every record of each candidate. The RUT score then only ranks them by utility: `,
        el('strong', { class: 'best-name' }, choice.chosen),
        ` keeps the most (utility U ${score(scored.find((e) => e.name === choice.chosen)!.candidate!.utility_u)}), but it protects no one. Coarsen or suppress quasi-identifier values and compare again.`,
      ),
    );
  } else if (choice.chosen !== null) {
    const j = scored.findIndex((e) => e.name === choice.chosen);
    const c = scored[j]!.candidate!;
    const feasibleCount = choice.feasible.length;
    box.append(
      el('p', { class: 'best-title' }, 'Best candidate: ', el('strong', { class: 'best-name' }, choice.chosen)),
      el(
        'p',
        {},
        `It has the highest RUT score, ${score(choice.rut[j])}, at ${alphaWords(choice.alpha)}, `,
        feasibleCount === scored.length
          ? `among all ${plural(scored.length, 'candidate')}`
          : `among the ${count(feasibleCount)} ${feasibleCount === 1 ? 'candidate' : 'candidates'} within the limits`,
        `: risk R ${score(c.risk_r)}, utility U ${score(c.utility_u)}.`,
      ),
    );
  } else {
    box.append(
      el('p', { class: 'best-title' }, 'No candidate is chosen.'),
      el('p', {}, `${reasonText(choice.reason).replace(/^./, (s) => s.toUpperCase())}. Relax τ_R or τ_U to admit one.`),
    );
  }
  const notes: Child[] = [
    ...infeasible.map((e) =>
      el(
        'li',
        { 'data-candidate': e.name, class: 'infeasible' },
        `${e.name} is not eligible: ${infeasibleBecause(e.candidate!, choice.tauR, choice.tauU).join(' and ')}.`,
      ),
    ),
    ...excludedNotes,
  ];
  const d = choice.derived;
  if (d.tau_r !== undefined) {
    notes.push(
      el(
        'li',
        { class: 'derived' },
        d.tau_r
          ? `Weight derivation: the smallest safety weight β at which the top-scoring of all candidates meets τ_R is ${decimal(d.tau_r.beta, 2)} (α ${decimal(d.tau_r.alpha, 2)}).`
          : 'Weight derivation: at no weight does the top-scoring of all candidates meet τ_R.',
      ),
    );
  }
  if (d.tau_u !== undefined) {
    notes.push(
      el(
        'li',
        { class: 'derived' },
        d.tau_u
          ? `Weight derivation: the smallest utility weight α at which the top-scoring of all candidates meets τ_U is ${decimal(d.tau_u.alpha, 2)}.`
          : 'Weight derivation: at no weight does the top-scoring of all candidates meet τ_U.',
      ),
    );
  }
  if (sweep && sweep.rows.length) {
    const runs: { name: string; from: number; to: number }[] = [];
    for (const r of sweep.rows) {
      const last = runs[runs.length - 1];
      if (last && last.name === r.argmax) last.to = r.alpha;
      else runs.push({ name: r.argmax, from: r.alpha, to: r.alpha });
    }
    notes.push(
      el(
        'li',
        { class: 'stability', 'data-stable': String(sweep.stable) },
        sweep.stable
          ? `Without limits, ${runs[0]!.name} scores highest at every weight of utility from 0.2 to 0.8: the choice does not hinge on the weights.`
          : `Without limits, the best candidate changes with the weights: ${runs
              .map((r) => `${r.name} for α ${r.from === r.to ? decimal(r.from, 1) : `${decimal(r.from, 1)}–${decimal(r.to, 1)}`}`)
              .join(', ')}.`,
      ),
    );
  }
  if (notes.length) box.append(el('ul', { class: 'best-notes' }, ...notes));
  return box;
}

export function renderCandidates(panel: HTMLElement, inputs: CompareInputs): void {
  clearCandidates();
  panel.replaceChildren();
  const list = entries(inputs.names, inputs.reports);
  const scored = list.filter((e) => e.candidate !== null);
  const colorOf = (e: Entry) => list.indexOf(e);
  const qis = inputs.reports[0]?.params.quasi_identifiers ?? inputs.config.quasi_identifiers;
  let latestResults: MetricResult[] = [];

  const download = el('button', { id: 'download-comparison', class: 'button', type: 'button' }, 'Download JSON comparison');
  download.addEventListener('click', () =>
    inputs.onDownload({
      candidates: list.map((e) => ({ file: e.name, metrics: e.report.metrics, input: e.report.input })),
      metrics: latestResults,
      excluded: list.filter((e) => !e.candidate).map((e) => ({ file: e.name, missing: e.missing })),
    }),
  );

  const downloadHtml = el('button', { id: 'download-comparison-html', class: 'button', type: 'button' }, 'Download HTML comparison');
  downloadHtml.addEventListener('click', inputs.onDownloadHtml);

  const table = measuresTable(list);
  const verdictHost = el('div', { class: 'verdict-host' });
  const mapHost = el('div', { class: 'ru-map-host' });
  const sweepHost = el('div', { class: 'chart', id: 'candidates-sweep' });
  let sweepChart: SweepChart | null = null;
  let destroyed = false;
  let ticket = 0;
  // The map sizes its labels for the screen width (larger text on narrow screens): drawn again
  // when the width crosses that limit.
  let mapInput: MapInput | null = null;
  const narrow = window.matchMedia(NARROW);
  const redrawMap = () => {
    if (mapInput) mapHost.replaceChildren(riskUtilityMap(mapInput));
  };
  narrow.addEventListener('change', redrawMap);

  const apply = async (p: ChoiceParams) => {
    const mine = ++ticket;
    let results: MetricResult[];
    try {
      results = await inputs.choose(
        scored.map((e) => e.candidate!),
        p,
      );
    } catch (e) {
      if (mine === ticket && !destroyed) {
        verdictHost.replaceChildren(
          el('p', { class: 'form-problem' }, `The choice could not be computed: ${(e as { message?: string }).message ?? String(e)}`),
        );
      }
      return;
    }
    if (mine !== ticket || destroyed) return;
    latestResults = results;
    const choice = scored.length ? choiceOf(results) : null;
    const sweep = sweepOf(results);
    verdictHost.replaceChildren(verdict(choice, list, scored, sweep));
    // The chosen one is highlighted only when it is worth sharing (not when every R = 1).
    const crowned = allAtFullRisk(scored) ? null : (choice?.chosen ?? null);
    table.update(choice, scored, crowned);
    panel.setAttribute('data-choice', choice?.chosen ?? '');
    panel.setAttribute('data-alpha', String(p.rut_alpha));
    // Without a scored candidate the charts are left out of the panel (below): not drawn.
    if (scored.length === 0) return;
    mapInput = {
      candidates: scored.map((e) => e.candidate!),
      colorIndex: scored.map(colorOf),
      chosen: crowned,
      feasible: new Set(choice?.feasible ?? []),
      tauR: choice?.tauR ?? null,
      tauU: choice?.tauU ?? null,
    };
    mapHost.replaceChildren(riskUtilityMap(mapInput));
    if (sweepChart) sweepChart.setAlpha(p.rut_alpha);
    else if (sweep && sweep.rows.length) {
      sweepChart = rutSweepChart(
        sweepHost,
        scored.map((e) => e.name),
        sweep.rows,
        p.rut_alpha,
        scored.map(colorOf),
      );
    }
  };

  const controls = choiceControls('choice', inputs.config.rut_alpha ?? DEFAULT_ALPHA, true, (p) => void apply(p));
  const ref = inputs.reference ? ` Population / reference table: ${inputs.reference}.` : ' No population table, so R is the risk inside each file.';
  panel.append(
    el('div', { class: 'results-head' }, el('h2', { id: 'results-title' }, '3. Compare candidates'), el('div', { class: 'downloads' }, download, downloadHtml)),
    el(
      'p',
      { class: 'lead' },
      `${count(list.length)} candidate releases of ${inputs.original ?? 'the original table'}, each audited with the same roles and settings. `,
      qis.length
        ? `Quasi-identifiers: ${qis.join(', ')}.${ref}`
        : 'No column is a quasi-identifier, so no risk was measured: the candidates are compared on utility alone.',
    ),
    section(
      'Which release to share',
      'choice-title',
      help(
        'Each candidate’s RUT score weighs its utility U against its safety 1 − R. Choose the weights that fit the use of the release, and optionally limits on risk and utility; the choice is recomputed at once, without reading the files again.',
      ),
      controls.node,
      verdictHost,
    ),
    section(
      'Every measure per candidate',
      'candidates-measures-title',
      help(
        'Rows are measures, columns the candidates in the order they were given; the chosen one is highlighted. Point at a dash to see why it has no value.',
      ),
      table.node,
    ),
  );
  // The charts place candidates by risk R and utility U: without a candidate that has both
  // (no quasi-identifiers, say) they would be empty frames, so they are left out.
  if (scored.length > 0) {
    panel.append(
      el(
        'div',
        { class: 'candidates-charts' },
        section(
          'Risk against utility',
          'ru-map-title',
          help(
            'Each point is a candidate. Up and to the left is better. Candidates on the frontier line are not beaten on both risk and utility by any other; the ringed one is chosen.',
          ),
          mapHost,
        ),
        section(
          'The RUT score as the weight of utility changes',
          'candidates-sweep-title',
          help(`${explain('rut_alpha_sweep')} The dashed line marks the chosen weight.`),
          sweepHost,
        ),
      ),
    );
  }
  // Every candidate's account of bytes and records, and which reports are partial.
  panel.append(
    section(
      'The files as read',
      'candidates-read-title',
      el(
        'ul',
        { class: 'plain-list read-accounts' },
        ...inputs.reports.map((r, i) =>
          el(
            'li',
            { 'data-candidate': inputs.names[i] ?? '' },
            `${inputs.names[i] ?? ''}: ${accountText(r.input, inputs.sizes[i] ?? null)}`,
            r.input.error_records > 0 ? partialNote(r.input) : null,
          ),
        ),
      ),
    ),
  );
  // The files' warnings, each said once with the candidates it concerns.
  const byMessage = new Map<string, string[]>();
  for (const e of list) for (const w of e.report.warnings) byMessage.set(w.message, [...(byMessage.get(w.message) ?? []), e.name]);
  const notes = [...byMessage].map(([message, names]) => `${names.length === list.length ? 'Every candidate' : names.join(', ')}: ${message}`);
  if (notes.length) panel.append(section('Notes', 'candidates-notes-title', el('ul', { class: 'warnings' }, ...notes.map((n) => el('li', {}, n)))));
  panel.hidden = false;

  teardown = () => {
    destroyed = true;
    narrow.removeEventListener('change', redrawMap);
    sweepChart?.destroy();
  };
  const first = controls.read();
  void apply(first ?? { rut_alpha: inputs.config.rut_alpha ?? DEFAULT_ALPHA });
}
