// "Make a safe release" (spec protect.md, issue 38): the criteria (a preset or custom), a
// ladder per quasi-identifier (proposed from its values by the core; bands, dates, prefixes or
// an uploaded ARX hierarchy), the exact search of the lattice with its progress and a cancel,
// then the chosen node (protect-node.ts). Every figure comes from the core in the worker
// (`ProtectEngine`); this file reads the form and draws.

import { PROTECT_PRESETS, type LadderView, type ProtectParams, type ProtectSettings } from '../../shared/contract';
import type { Effect } from '../../shared/advice-data';
import {
  adviceLadder,
  ladderText,
  protectForm,
  protectParams,
  protectSettings,
  type CriteriaChoice,
  type LadderChoice,
  type LadderKind,
  type ProtectEngine,
} from '../../shared/protect-data';
import type { Report, WireError } from '../../shared/report';
import { el } from '../../ui/dom';
import { timeLeft } from '../../ui/estimate';
import { count } from '../../ui/format';
import { section } from '../../ui/view-kit';
import { chosenNode, type ChosenNode } from './protect-node';
import './protect.css';

const KINDS: [LadderKind, string][] = [
  ['none', 'the value, then *'],
  ['bands', 'numeric bands'],
  ['dates', 'dates'],
  ['prefix', 'prefixes'],
  ['hierarchy', 'ARX hierarchy file'],
];

const HINT: Record<LadderKind, string> = {
  none: '',
  bands: 'widths, each a multiple of the one before: 5,10,20 (optional bottom=B, top=T)',
  dates: 'month,quarter,year (any of them, in this order)',
  prefix: 'kept lengths, longest first: 4,3,2',
  hierarchy: 'an ARX hierarchy CSV: one row per value, then its label per level',
};

function numberInput(id: string, label: string, value: number | null, attrs: Record<string, string>): { node: HTMLElement; input: HTMLInputElement } {
  const input = el('input', { id, type: 'number', inputmode: 'decimal', ...attrs });
  input.value = value === null ? '' : String(value);
  return { node: el('label', { class: 'protect-field', for: id }, label, input), input };
}

/** A share as the form's percent (no binary residue: 0.07 is 7, not 7.000000000000001). */
const percent = (share: number | null) => (share === null ? '' : String(Number((share * 100).toPrecision(12))));

/** The section (null without quasi-identifiers): `apply` opens it with an advice change;
 * `settings` is the protection the settings file and the link carry (the last search's with
 * the node chosen, else the one this audit's settings brought). */
export function protectView(
  report: Report,
  engine: ProtectEngine | null,
): { node: HTMLElement; apply: (e: Effect) => void; settings: () => ProtectSettings | null } | null {
  const qis = report.params.quasi_identifiers;
  if (!engine || qis.length === 0) return null;
  const sensitive = report.params.sensitive ?? [];
  const status = el('p', { id: 'protect-status', class: 'help', role: 'status', 'aria-live': 'polite' });
  const out = el('div', { id: 'protect-result' });

  // The criteria.
  const preset = el(
    'select',
    { id: 'protect-preset' },
    ...PROTECT_PRESETS.map((p) => el('option', { value: p.id }, p.name)),
    el('option', { value: 'custom' }, 'custom'),
  );
  const k = numberInput('protect-k', 'k (smallest class)', 5, { min: '1', step: '1' });
  const l = numberInput('protect-l', 'distinct l per sensitive column', null, { min: '1', step: '1' });
  const t = numberInput('protect-t', 't (t-closeness)', null, { min: '0', max: '1', step: '0.01' });
  const risk = numberInput('protect-risk', 'average risk at most (%)', null, { min: '0', max: '100', step: '0.1' });
  const suppression = numberInput('protect-suppression', 'records suppressed at most (%)', null, { min: '0', max: '100', step: '0.1' });
  const setPreset = (id: string) => {
    const p = PROTECT_PRESETS.find((x) => x.id === id);
    if (!p) return;
    k.input.value = p.criteria.k === null ? '' : String(p.criteria.k);
    l.input.value = '';
    t.input.value = '';
    risk.input.value = percent(p.criteria.average_risk);
    suppression.input.value = percent(p.suppression_limit);
  };
  preset.addEventListener('change', () => setPreset(preset.value));
  for (const f of [k, l, t, risk, suppression]) f.input.addEventListener('input', () => (preset.value = 'custom'));
  // Settings from a link or a settings file set the form; else the first preset.
  const restored = report.params.protect ? protectForm(report.params.protect) : null;
  if (restored && restored.preset === 'custom') {
    preset.value = 'custom';
    const c = restored.criteria;
    k.input.value = c.k === null ? '' : String(c.k);
    l.input.value = c.l === null ? '' : String(c.l);
    t.input.value = c.t === null ? '' : String(c.t);
    risk.input.value = percent(c.averageRisk);
    suppression.input.value = percent(c.suppression);
  } else {
    preset.value = restored?.preset ?? PROTECT_PRESETS[0].id;
    setPreset(preset.value);
  }
  const noSa = sensitive.length === 0;
  l.input.disabled = noSa;
  t.input.disabled = noSa;

  // A ladder per QI.
  const choices: Record<string, LadderChoice> = {};
  const rows = qis.map((q) => {
    choices[q] = restored?.ladders[q] ?? { kind: 'none', text: '' };
    const kind = el(
      'select',
      { class: 'protect-kind', 'data-qi': q, 'aria-label': `Ladder of ${q}` },
      ...KINDS.map(([v, name]) => el('option', { value: v }, name)),
    );
    const text = el('input', { class: 'protect-text', 'data-qi': q, type: 'text', 'aria-label': `Levels of ${q}`, spellcheck: 'false' });
    const file = el('input', { class: 'protect-file', 'data-qi': q, type: 'file', accept: '.csv,.txt,text/csv', 'aria-label': `ARX hierarchy file of ${q}` });
    const hint = el('span', { class: 'help' });
    const show = () => {
      const c = choices[q];
      kind.value = c.kind;
      text.hidden = c.kind === 'none' || c.kind === 'hierarchy';
      file.hidden = c.kind !== 'hierarchy';
      if (c.kind !== 'hierarchy') text.value = c.text;
      hint.textContent = c.kind === 'hierarchy' && c.text ? `${count(c.text.split('\n').filter((x) => x.trim()).length)} rows read` : HINT[c.kind];
    };
    kind.addEventListener('change', () => {
      choices[q] = { kind: kind.value as LadderKind, text: '' };
      show();
    });
    text.addEventListener('input', () => (choices[q].text = text.value));
    file.addEventListener('change', () => {
      const f = file.files?.[0];
      if (!f) return;
      void f.text().then((csv) => {
        choices[q] = { kind: 'hierarchy', text: csv };
        show();
      });
    });
    show();
    return { q, tr: el('tr', {}, el('th', { scope: 'row' }, q), el('td', {}, kind), el('td', {}, text, file, ' ', hint)), show };
  });
  const ladderTable = el(
    'table',
    { class: 'protect-ladders' },
    el('caption', {}, 'A ladder per quasi-identifier: each level coarser than the one before; the top is * (the column suppressed).'),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Column'), el('th', { scope: 'col' }, 'Ladder'), el('th', { scope: 'col' }, 'Levels'))),
    el('tbody', {}, ...rows.map((r) => r.tr)),
  );
  const proposed = engine.propose(qis).then(
    (ladders) => {
      for (const r of rows) {
        const ladder = ladders[r.q];
        if (ladder && choices[r.q].kind === 'none') choices[r.q] = { kind: ladder.kind, text: ladderText(ladder) };
        r.show();
      }
    },
    () => undefined,
  );

  const search = el('button', { id: 'protect-search', class: 'button', type: 'button' }, 'Search for the best release');
  const cancel = el('button', { id: 'protect-cancel', class: 'button secondary', type: 'button', hidden: true }, 'Cancel');
  let chosen: ChosenNode | null = null;
  /** The user cancelled the search under way (its rejection is not an error to show). */
  let cancelled = false;
  /** The node an advice change or the settings asked for, chosen once its search ends. */
  let wanted: Record<string, number | 'top'> | null = report.params.protect?.node ?? null;
  /** The last search's settings and ladders (for the settings file and the link). */
  let searched: { params: ProtectParams; ladders: LadderView[] } | null = null;

  const criteria = (): CriteriaChoice => {
    const n = (i: HTMLInputElement) => (i.value.trim() === '' || i.disabled ? null : Number(i.value));
    const share = (i: HTMLInputElement) => (n(i) === null ? null : (n(i) as number) / 100);
    return { k: n(k.input), l: n(l.input), t: n(t.input), averageRisk: share(risk.input), suppression: share(suppression.input) ?? 0 };
  };

  const fail = (what: string, e: unknown) => {
    const w = e as WireError | Error;
    status.textContent = `${what}: ${w.message}${'column' in w && w.column ? ` (column ${w.column})` : ''}${'line' in w && w.line ? `, line ${w.line}` : ''}`;
    status.dataset.state = 'error';
  };

  const run = async () => {
    let params: ProtectParams;
    try {
      params = protectParams(qis, sensitive, choices, criteria(), report.params.missing_policy ?? 'ordinary', report.params.threshold ?? 0.2);
    } catch (e) {
      return fail('The settings are not complete', e);
    }
    chosen?.destroy();
    chosen = null;
    cancelled = false;
    out.replaceChildren();
    search.disabled = true;
    cancel.hidden = false;
    status.dataset.state = 'busy';
    status.textContent = 'Searching the lattice…';
    const started = performance.now();
    try {
      const { result, ladders } = await engine.search(params, (p) => {
        if (p.phase !== 'nodes' || p.total === 0) return;
        // Nodes skipped by the search's pruning end it early: the time left is at most this.
        const left = timeLeft(p.done, p.total, 0, (performance.now() - started) / 1000);
        status.textContent = `Searching the lattice: ${count(p.done)} of ${count(p.total)} nodes, ${left} at most.`;
      });
      status.dataset.state = 'done';
      status.textContent = `Searched in ${((performance.now() - started) / 1000).toFixed(1)} s.`;
      chosen = chosenNode(result, ladders, wanted, engine, status, report);
      searched = { params, ladders };
      wanted = null;
      out.append(chosen.node);
    } catch (e) {
      if (!cancelled) fail('The search stopped', e);
    } finally {
      search.disabled = false;
      cancel.hidden = true;
    }
  };
  search.addEventListener('click', () => void run());
  cancel.addEventListener('click', () => {
    cancelled = true;
    engine.cancel();
    status.dataset.state = 'cancelled';
    status.textContent = 'Cancelled. Search again when ready (the file is read again first).';
  });

  const node = section(
    'Make a safe release',
    'protect-title',
    el(
      'p',
      { class: 'help' },
      'Coarsen the quasi-identifiers a level at a time and suppress the records of classes that still break the criteria: every combination of levels (a node) is checked exactly, and the one that loses the least information is proposed. ' +
        'Then write the protected file: it is audited at once with every metric, and its figures must equal the ones predicted here. Nothing leaves this computer.',
    ),
    el(
      'fieldset',
      { class: 'protect-criteria' },
      el('legend', {}, 'Criteria'),
      el('label', { class: 'protect-field', for: 'protect-preset' }, 'Preset', preset),
      k.node,
      l.node,
      t.node,
      risk.node,
      suppression.node,
      noSa ? el('p', { class: 'help' }, 'l and t need a sensitive column (step 2).') : null,
      report.params.missing_policy === 'wildcard'
        ? el(
            'p',
            { class: 'help', id: 'protect-wildcard' },
            'Blank cells are searched as ordinary values here: the wildcard policy of this audit is not supported by the search.',
          )
        : null,
    ),
    ladderTable,
    el('div', { class: 'protect-actions' }, search, cancel),
    status,
    out,
  );
  node.id = 'protect-section';

  const apply = (effect: Effect) => {
    const a = adviceLadder(effect);
    node.scrollIntoView({ block: 'start' });
    if (effect.change.kind === 'suppress') {
      preset.value = 'custom';
      suppression.input.value = suppression.input.value || '1';
    }
    void proposed.then(() => {
      if (a?.choice) choices[a.qi] = a.choice;
      for (const r of rows) r.show();
      wanted = a ? { [a.qi]: a.level } : null;
      search.focus();
      void run();
    });
  };
  const settings = (): ProtectSettings | null => {
    if (!searched || !chosen) return report.params.protect ?? null;
    const at = chosen.levels();
    return protectSettings(searched.params, Object.fromEntries(searched.ladders.map((x, i) => [x.qi, at[i]])));
  };
  if (restored) {
    status.textContent = `Criteria and ladders set from this audit's settings${wanted ? ', with its chosen node' : ''}: search to see the release.`;
  }
  return { node, apply, settings };
}
