// A search's outcome and the node the user keeps (issue 38, Deliver 3-4): the best node and
// why, the Pareto front of the feasible nodes on the risk-utility map, each ladder's levels
// with their labels and records, a node chooser (a level per QI) whose figures show at once,
// then the release of the chosen node written as a download and audited, beside the original.

import type { Figures, LadderView, NodeView } from '../../shared/contract';
import { isRecord, numberValue, type MetricResult, type Report } from '../../shared/report';
import { arxVerdict } from '../../shared/suite';
import { levelsOf, nodeUtility, nodeWords, protectionReport } from '../../shared/protect-data';
import { riskUtilityMap } from '../../charts/risk-utility-map';
import { el, scrollTable } from '../../ui/dom';
import { timeLeft } from '../../ui/estimate';
import { count, megabytes, percent, plural, score } from '../../ui/format';
import type { ProtectEngine } from '../../shared/protect-data';

/** Most nodes of the Pareto front drawn on the map. */
const MAP_POINTS = 12;

/** `most` indices spread evenly over `0 .. n - 1`, both ends included (all when `n <= most`). */
function evenly(n: number, most: number): number[] {
  if (n <= most) return [...Array(n).keys()];
  return [...new Set([...Array(most).keys()].map((i) => Math.round((i * (n - 1)) / (most - 1))))];
}

export interface ChosenNode {
  node: HTMLElement;
  /** The levels chosen, in the ladders' order. */
  levels(): number[];
  destroy(): void;
}

/** A node of the result's details as the core writes it: `{levels: {qi: level}, ...figures}`. */
function detailNode(ladders: LadderView[], x: unknown): NodeView | null {
  if (!isRecord(x) || !isRecord(x.levels)) return null;
  const figures = x as unknown as Figures;
  return { levels: levelsOf(ladders, x.levels as Record<string, number>), figures, feasible: true };
}

function figureRows(f: Figures, records: number): [string, string][] {
  return [
    ['Records suppressed', `${count(f.records_suppressed)} (${percent(records ? f.records_suppressed / records : 0)})`],
    ['Smallest class k', count(f.k)],
    ['Classes', count(f.classes)],
    ['Average risk', score(f.average_risk)],
    ['Records at risk', percent(f.records_at_risk)],
    ['Information lost', score(f.loss)],
  ];
}

function levelsTable(l: LadderView): HTMLElement {
  return scrollTable(
    `Levels of ${l.qi} (${l.kind === 'default' ? 'the value, then *' : l.kind})`,
    ['Level', 'What', 'Labels', 'Largest labels (records)'],
    l.levels.map((v, j) => [String(j), v.name, count(v.labels), v.largest.map((x) => `${x.label} (${count(x.records)})`).join(', ')]),
    [0, 2],
  );
}

/** The verdict and headline figures of an audit, for the table of the original and the release. */
function auditRow(report: Report): string[] {
  return [
    arxVerdict(report)?.light.toUpperCase() ?? '—',
    count(numberValue(report, 'n_records')),
    count(numberValue(report, 'k_anonymity')),
    count(numberValue(report, 'sample_uniques')),
    percent(numberValue(report, 'prosecutor_records_at_risk')),
    score(numberValue(report, 'r_internal')),
  ];
}

export function chosenNode(
  result: MetricResult,
  ladders: LadderView[],
  wanted: Record<string, number | 'top'> | null,
  engine: ProtectEngine,
  status: HTMLElement,
  original?: Report,
): ChosenNode {
  const d = isRecord(result.details) ? result.details : {};
  const records = typeof d.records_in_scope === 'number' ? d.records_in_scope : 0;
  const best = detailNode(ladders, d.best);
  const closest = detailNode(ladders, d.closest);
  const pareto = (Array.isArray(d.pareto) ? d.pareto : []).map((x) => detailNode(ladders, x)).filter((x): x is NodeView => x !== null);
  const total = typeof d.nodes_total === 'number' ? d.nodes_total : 0;
  const feasible = typeof d.nodes_feasible === 'number' ? d.nodes_feasible : 0;

  const lead = best
    ? el(
        'p',
        { id: 'protect-best', class: 'lead' },
        `Best release: ${nodeWords(ladders, best.levels)}. `,
        `Of ${count(total)} nodes, ${count(feasible)} meet the criteria within the suppression limit; this one loses the least information (${score(best.figures.loss)}), `,
        `suppressing ${plural(best.figures.records_suppressed, 'record')}, with k ${count(best.figures.k)} and average risk ${score(best.figures.average_risk)}.`,
      )
    : el(
        'p',
        { id: 'protect-best', class: 'alert' },
        `No node of the ${count(total)} meets the criteria within the suppression limit. `,
        closest ? `The closest (${nodeWords(ladders, closest.levels)}) would suppress ${plural(closest.figures.records_suppressed, 'record')}. ` : '',
        'Allow more suppression, relax a criterion, or give a ladder more levels.',
      );

  // The Pareto front (risk against utility) on the map, the best ringed; a long front shown
  // by MAP_POINTS nodes evenly along it.
  const bestAt = best ? pareto.findIndex((p) => p.levels.join() === best.levels.join()) : -1;
  const shownAt = [...new Set([...evenly(pareto.length, MAP_POINTS), ...(bestAt >= 0 ? [bestAt] : [])])].sort((a, b) => a - b);
  const onMap = shownAt.map((i) => pareto[i]);
  const names = shownAt.map((i, n) => (i === bestAt ? 'best' : `P${n + 1}`));
  const map = onMap.length
    ? el(
        'figure',
        { class: 'ru-map protect-map' },
        riskUtilityMap({
          candidates: onMap.map((p, i) => ({ name: names[i], risk_r: p.figures.average_risk ?? 0, utility_u: nodeUtility(p) })),
          colorIndex: onMap.map((_, i) => i),
          chosen: best ? 'best' : null,
          feasible: new Set(names),
          tauR: null,
          tauU: null,
        }),
        el(
          'figcaption',
          {},
          `The feasible nodes no other beats on both average risk (x) and information kept (y, 1 − loss): ${plural(pareto.length, 'node')}`,
          onMap.length < pareto.length ? `, ${count(onMap.length)} of them shown evenly along the front.` : '.',
        ),
        scrollTable(
          'The nodes on the map',
          ['Point', 'Node', 'Average risk', 'Information lost', 'Records suppressed'],
          onMap.map((p, i) => [
            names[i],
            nodeWords(ladders, p.levels),
            score(p.figures.average_risk),
            score(p.figures.loss),
            count(p.figures.records_suppressed),
          ]),
          [2, 3, 4],
        ),
      )
    : null;

  // The node chooser: a level per QI, its figures at once.
  const start = best?.levels ?? closest?.levels ?? ladders.map(() => 0);
  for (const [i, l] of ladders.entries()) {
    const level = wanted?.[l.qi];
    if (level !== undefined) start[i] = level === 'top' ? l.levels.length - 1 : Math.min(level, l.levels.length - 1);
  }
  const selects = ladders.map((l, i) => {
    const s = el(
      'select',
      { class: 'protect-level', 'data-qi': l.qi, id: `protect-level-${i}` },
      ...l.levels.map((v, j) => el('option', { value: String(j) }, `${j}: ${v.name}`)),
    );
    s.value = String(start[i]);
    return s;
  });
  const figures = el('div', { id: 'protect-figures', 'aria-live': 'polite' });
  const download = el('button', { id: 'protect-download', class: 'button', type: 'button' }, 'Write the protected file (CSV)');
  const cancel = el('button', { id: 'protect-release-cancel', class: 'button secondary', type: 'button', hidden: true }, 'Cancel');
  const releaseOut = el('div', { id: 'protect-release' });
  const levels = () => selects.map((s) => Number(s.value));
  let shown = 0;
  const showFigures = async () => {
    const asked = ++shown;
    try {
      const n = await engine.node(levels());
      if (asked !== shown) return;
      figures.replaceChildren(
        el(
          'p',
          { class: n.feasible ? 'protect-feasible' : 'protect-infeasible', 'data-feasible': String(n.feasible) },
          n.feasible
            ? 'This node meets the criteria.'
            : 'This node does not meet the criteria within the suppression limit: it can still be written, at your own judgement.',
        ),
        scrollTable('Figures of the chosen node', ['Figure', 'Value'], figureRows(n.figures, records), [1]),
      );
    } catch (e) {
      figures.replaceChildren(el('p', { class: 'alert' }, (e as Error).message));
    }
  };
  for (const s of selects) s.addEventListener('change', () => void showFigures());
  void showFigures();

  const ladderButtons = ladders.map((l) => {
    const b = el('button', { class: 'linklike', type: 'button', 'data-qi': l.qi }, l.qi);
    b.addEventListener(
      'click',
      () => void engine.ladderCsv(l.qi).then((csv) => engine.save(csv, 'text/csv', `hierarchy-${l.qi.replace(/[^\w.-]+/g, '_')}.csv`)),
    );
    return b;
  });
  const ladderLinks = el(
    'p',
    { class: 'protect-hierarchies' },
    'Download a ladder as an ARX hierarchy: ',
    ...ladderButtons.flatMap((b, i) => (i ? [', ', b] : [b])),
  );

  /** The user cancelled the release under way: the worker was restarted, this search is gone. */
  let cancelled = false;
  cancel.addEventListener('click', () => {
    cancelled = true;
    engine.cancel();
    // What asks the worker for this search can no longer be answered.
    for (const c of [...selects, ...ladderButtons]) c.disabled = true;
    status.dataset.state = 'cancelled';
    status.textContent = 'Cancelled: no file was saved. Search again to write it (the file is read again first).';
  });
  const write = async () => {
    const at = levels();
    download.disabled = true;
    cancel.hidden = false;
    status.dataset.state = 'busy';
    status.textContent = 'Writing the protected file…';
    releaseOut.replaceChildren();
    try {
      // What the protection report tells of the node, asked first: the release's answer is the
      // last one, so a cancel before it saves nothing.
      const written = await engine.node(at);
      const hierarchies = Object.fromEntries(await Promise.all(ladders.map(async (l) => [l.qi, await engine.ladderCsv(l.qi)] as const)));
      const started = performance.now();
      const released = await engine.release(at, (bytes, share) => {
        const left = timeLeft(share, 1, 0, (performance.now() - started) / 1000);
        status.textContent = `Writing the protected file: ${megabytes(bytes)} written (${percent(share)} of the rows), ${left}; then it is audited.`;
      });
      const doc = protectionReport(result, ladders, written, hierarchies, original ?? null, released);
      engine.keepProtection(doc);
      const report = released.report;
      status.dataset.state = 'done';
      status.textContent = `The protected file is saved (${nodeWords(ladders, at)}) and audited${released.checked ? ': its figures equal the prediction' : ''}.`;
      const reportButton = el(
        'button',
        { id: 'protect-report', class: 'button secondary', type: 'button' },
        'Download the protection report (JSON: node, criteria, ladders, before and after)',
      );
      reportButton.addEventListener('click', () => engine.save(JSON.stringify(doc, null, 2), 'application/json', 'pseudolens-protection.json'));
      const head = ['Table', 'Verdict', 'Records', 'k', 'Uniques', 'Records at risk', 'Average risk'];
      const rows = [...(original ? [['Original', ...auditRow(original)]] : []), ['Protected release', ...auditRow(report)]];
      releaseOut.replaceChildren(
        el(
          'p',
          { id: 'protect-verdict', 'data-light': arxVerdict(report)?.light ?? '' },
          `The protected file's verdict: ${arxVerdict(report)?.light.toUpperCase() ?? 'not available'}.`,
        ),
        scrollTable('The original and the protected release, each audited', head, rows, [2, 3, 4, 5, 6]),
        reportButton,
      );
    } catch (e) {
      if (cancelled) return;
      status.dataset.state = 'error';
      status.textContent = `The protected file could not be written: ${(e as Error).message}`;
    } finally {
      download.disabled = cancelled;
      cancel.hidden = true;
    }
  };
  download.addEventListener('click', () => void write());

  const node = el(
    'div',
    { class: 'protect-outcome' },
    lead,
    map,
    el(
      'fieldset',
      { id: 'protect-node', class: 'protect-node' },
      el('legend', {}, 'Chosen node: a level per column'),
      ...ladders.map((l, i) => el('label', { class: 'protect-field', for: selects[i].id }, l.qi, selects[i])),
    ),
    figures,
    el('div', { class: 'protect-actions' }, download, cancel),
    releaseOut,
    el('details', { class: 'protect-levels' }, el('summary', {}, 'Each ladder’s levels, labels and records'), ...ladders.map(levelsTable), ladderLinks),
  );
  return { node, levels, destroy: () => (shown = -1) };
}
