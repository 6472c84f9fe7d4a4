// The SCORR verdict (spec identity-risk.md Sec 11.2): the conventional check (k above k_min
// and t at most t_max for every sensitive column) with its reasons, the extended risk bands
// (one row per risk, coloured low / medium / high), the final decision, and the thresholds
// used. The decision also shows as a badge next to the ARX traffic light.

import { DECISIONS, scorrVerdict, sensitiveColumns, type Band, type ScorrVerdict } from '../../shared/attribute-data';
import { el, type Child } from '../../ui/dom';
import { explain } from '../../ui/explain';
import { count, plural, score } from '../../ui/format';
import { metric, type Report } from '../../shared/report';
import { help, missingReason, section } from '../../ui/view-kit';

/** Why the decision was reached, from the two checks behind it. */
function decisionWhy(v: ScorrVerdict): string {
  const compliant = v.conventional?.compliant;
  const category = v.extended?.category;
  switch (v.final) {
    case 'eligible':
      return 'The conventional check passes and every risk below is in the low band.';
    case 'release_with_acknowledged_risk':
      return 'The conventional check passes, but some risk below is in the medium band: release only if that risk is accepted and documented.';
    case 'not_approved':
      if (compliant === false && category === 'high') return 'The conventional check fails and some risk below is in the high band.';
      if (compliant === false) return 'The conventional check fails (see the reasons below).';
      return 'The conventional check passes, but some risk below is in the high band.';
    default:
      return '';
  }
}

const BAND_NAMES: Readonly<Record<Band, string>> = { low: 'Low', medium: 'Medium', high: 'High' };

const NO_SENSITIVE = 'The SCORR verdict needs a sensitive column: mark one as "Sensitive" in step 2 and run the audit again.';

function noSensitive(report: Report): boolean {
  return sensitiveColumns(report).length === 0 || metric(report, 'verdict_scorr_final')?.reason === 'no_sensitive_attribute';
}

/** The final decision as a badge (a link to the SCORR section), for the verdict box. */
export function scorrBadge(report: Report): HTMLElement {
  const v = scorrVerdict(report);
  const decision = v.final;
  const allBlank = metric(report, 'verdict_scorr_final')?.reason === 'quasi_identifiers_all_blank';
  const text = decision ? DECISIONS[decision] : allBlank ? 'Not assessable' : noSensitive(report) ? 'Needs a sensitive column' : 'Not available';
  return el(
    'a',
    { class: `scorr-badge scorr-${decision ?? 'none'}`, id: 'scorr-badge', href: '#scorr-verdict', 'data-decision': decision ?? 'none' },
    el('span', { class: 'scorr-badge-label' }, 'SCORR verdict'),
    el('span', { class: 'scorr-badge-value' }, text),
  );
}

/** The reasons start with a symbol ("k = 3 …", "t-closeness of …"): kept lower case. */
function sentence(s: string): string {
  const c = s.trim();
  return /[.!?]$/.test(c) ? c : `${c}.`;
}

/** Readable names for the extended rows (`uq_qi`, `uf_qi`, `uf_<qi>`, `co_<qi>[_<sa>]`). */
function rowNames(report: Report): Map<string, string> {
  const qis = report.params.quasi_identifiers;
  const sas = sensitiveColumns(report);
  const names = new Map<string, string>([
    ['uq_qi', 'Uniqueness, all quasi-identifiers'],
    ['uf_qi', 'Uniformity, all quasi-identifiers'],
  ]);
  for (const q of qis) names.set(`uf_${q}`, `Uniformity, ${q}`);
  for (const sa of sas) {
    for (const q of qis) names.set(sas.length > 1 ? `co_${q}_${sa}` : `co_${q}`, `Correlation, ${q} → ${sa}`);
  }
  return names;
}

function bandChip(band: Band): HTMLElement {
  return el('span', { class: `band band-${band}` }, BAND_NAMES[band]);
}

function conventional(v: ScorrVerdict, report: Report): Child[] {
  const c = v.conventional;
  if (!c) return [el('p', {}, missingReason(report, 'verdict_scorr_conventional') ?? 'Not reported.')];
  const basis = c.kBasis === 'persons' ? 'persons' : 'records';
  const ts = Object.entries(c.t)
    .map(([sa, t]) => `${sa} ${score(t)}`)
    .join(', ');
  return [
    el(
      'p',
      { class: `scorr-line ${c.compliant ? 'pass' : 'fail'}`, id: 'scorr-conventional', 'data-compliant': String(c.compliant) },
      el('strong', {}, c.compliant ? 'Compliant. ' : 'Not compliant. '),
      `k = ${count(c.k)} (counted in ${basis}); t-closeness: ${ts || '—'}.`,
    ),
    c.reasons.length ? el('ul', { class: 'verdict-reasons' }, ...c.reasons.map((r) => el('li', {}, sentence(r)))) : null,
  ];
}

function extended(v: ScorrVerdict, report: Report): Child[] {
  const e = v.extended;
  if (!e) return [el('p', {}, missingReason(report, 'verdict_scorr_extended') ?? 'Not reported.')];
  const names = rowNames(report);
  const order = [...names.keys()];
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  const rows = [...e.rows].sort((a, b) => rank(a.id) - rank(b.id));
  const table = el(
    'div',
    { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'SCORR extended risk bands', id: 'scorr-bands' },
    el(
      'table',
      { class: 'band-table' },
      el('caption', { class: 'visually-hidden' }, 'SCORR extended risk bands'),
      el(
        'thead',
        {},
        el('tr', {}, el('th', { scope: 'col' }, 'Risk'), el('th', { scope: 'col', class: 'num' }, 'Highest value'), el('th', { scope: 'col' }, 'Band')),
      ),
      el(
        'tbody',
        {},
        ...rows.map((r) =>
          el(
            'tr',
            { 'data-row': r.id, 'data-band': r.band },
            el('th', { scope: 'row' }, names.get(r.id) ?? r.id),
            el('td', { class: 'num' }, score(r.value)),
            el('td', {}, bandChip(r.band)),
          ),
        ),
      ),
    ),
  );
  const n = report.metrics.find((m) => m.id === 'n_records')?.value;
  const hint =
    e.kHint && (e.kHint.medium !== null || e.kHint.low !== null)
      ? help(
          `The uniqueness risk falls to the medium band from k = ${count(e.kHint.medium)} and to the low band from k = ${count(e.kHint.low)}`,
          typeof n === 'number' ? ` (for ${plural(n, 'record')}).` : '.',
        )
      : null;
  return [el('p', { class: 'scorr-line', id: 'scorr-category' }, 'Category: ', bandChip(e.category), ' (the worst band of the rows below).'), table, hint];
}

function thresholdsText(v: ScorrVerdict, report: Report): string {
  const p = { ...report.params, ...v.params } as Record<string, unknown>;
  const x = (key: string, fallback: number) => (typeof p[key] === 'number' ? String(p[key]) : String(fallback));
  const basis = p.scorr_k_basis === 'persons' ? 'persons' : 'records';
  return (
    `Thresholds used: k above ${x('scorr_k_min', 10)} (counted in ${basis}), t at most ${x('scorr_t_max', 0.5)}; ` +
    `bands: low up to ${x('scorr_low_max', 0.33)}, medium up to ${x('scorr_medium_max', 0.66)}, high above.`
  );
}

export function scorrVerdictView(report: Report): HTMLElement {
  const wrap = (...body: Child[]) => {
    const node = section('SCORR verdict', 'scorr-verdict-title', ...body);
    node.id = 'scorr-verdict';
    return node;
  };
  if (noSensitive(report)) return wrap(el('p', { class: 'note', id: 'scorr-none' }, NO_SENSITIVE));
  const v = scorrVerdict(report);
  return wrap(
    help('The release rule of the SCORR method: a conventional check on k and t-closeness, then every risk banded low, medium or high.'),
    el(
      'div',
      { class: `scorr-decision scorr-${v.final ?? 'none'}`, id: 'scorr-final', 'data-decision': v.final ?? 'none' },
      el('p', { class: 'scorr-decision-value' }, 'Decision: ', el('strong', {}, v.final ? DECISIONS[v.final] : 'not available')),
      el('p', {}, v.final ? decisionWhy(v) : (missingReason(report, 'verdict_scorr_final') ?? '')),
    ),
    el('h4', { class: 'subhead' }, 'Conventional check'),
    help(explain('verdict_scorr_conventional')),
    ...conventional(v, report),
    el('h4', { class: 'subhead' }, 'Extended check'),
    help(explain('verdict_scorr_extended')),
    ...extended(v, report),
    el('p', { class: 'verdict-thresholds', id: 'scorr-thresholds' }, thresholdsText(v, report)),
  );
}
