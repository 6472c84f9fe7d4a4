// The audit as one self-contained HTML file, made on this computer. It opens with what it may
// be used for (confidential when it holds record-level values, or the shareable variant of
// issue 13 Deliver 2) and the verdict with its reasons; then the results panel as the page
// shows it, its canvas charts turned into PNG images, the release written in the page if any
// (protection-html.ts), every metric with its sentence, and last the inputs (name, size,
// SHA-256), the roles and every setting. The file carries its own CSS, no script and no link to
// anything outside it, so it opens offline and prints to PDF.
//
// `snapshotResults` and `pageCss` read the live page; `htmlReport` is a pure function of the
// Report, that snapshot, the protection report and the input names.

import { bytesText, delimiterName, readAsText, recordsText } from '../ui/account';
import { explain, reasonText } from '../ui/explain';
import { count, fileSize } from '../ui/format';
import { fillDeferred } from '../ui/dom';
import { isRecord, type InputFacts, type MetricResult, type Report } from '../shared/report';
import { scorrBadge } from '../results/identity/scorr-verdict-view';
import { metricInterval, scopeAttribute, scopeSubset } from '../shared/suite';
import { verdictView } from '../results/identity/verdict-view';
import { metricText } from '../ui/view-kit';
import type { ProtectionReport } from '../shared/protect-data';
import { escapeHtml as esc, htmlTable, KEEP_TOGETHER_ROWS } from './html-text';
import { protectionSection } from './protection-html';

/** The names the page knows for the tables of the audit (the report holds no file names), and
 * their sizes when it knows them (the account compares the bytes read with them). */
export interface InputNames {
  released: string;
  original: string | null;
  reference: string | null;
  sizes?: { released: number | null; original: number | null; reference: number | null };
}

/** What the report may be used for: the full report, confidential when the shareable variant
 * at `minCount` leaves `removed` entries out of it, or that variant itself. */
export interface Disclosure {
  shareable: boolean;
  minCount: number;
  removed: number;
}

export interface HtmlReportParts {
  report: Report;
  disclosure: Disclosure;
  inputs: InputNames;
  /** `snapshotResults` of the results panel, or null to leave the page's view out. */
  resultsHtml: string | null;
  /** The page's CSS (`pageCss`), so the snapshot looks as it does on the page. */
  css: string;
  /** The protection report of the release written in the page, or null when none was. */
  protection: ProtectionReport | null;
  /** The engine's version (wasm `version()`), null when unknown. */
  version: string | null;
  generatedAt: Date;
}

const TOOL = 'pseudolens';

// --- reading the live page ------------------------------------------------------------------

/**
 * The results panel as static HTML: every canvas becomes an <img> of its pixels (a data URL),
 * buttons, inputs and hover read-outs are removed, collapsed details are opened, and the
 * "all metrics" table is left out (the report lists every metric in full). What the panel
 * deferred is built first, and its charts are painted (uPlot paints in a microtask) before
 * they are read.
 */
export async function snapshotResults(panel: HTMLElement): Promise<string> {
  fillDeferred(panel);
  await new Promise((painted) => setTimeout(painted));
  const clone = panel.cloneNode(true) as HTMLElement;
  const live = [...panel.querySelectorAll('canvas')];
  const copies = [...clone.querySelectorAll('canvas')];
  live.forEach((canvas, i) => {
    const copy = copies[i];
    if (!copy) return;
    const box = canvas.getBoundingClientRect();
    const holder = canvas.closest('[role="img"]');
    const img = document.createElement('img');
    img.className = 'chart-image';
    img.alt = holder?.getAttribute('aria-label') ?? 'Chart';
    img.width = Math.round(box.width) || canvas.width;
    img.height = Math.round(box.height) || canvas.height;
    let picture: HTMLElement = img;
    try {
      img.src = canvas.toDataURL('image/png');
    } catch {
      // Only a canvas tainted by an outside image refuses; the page draws none. Say so anyway.
      picture = Object.assign(document.createElement('p'), { className: 'help', textContent: `(${img.alt}: not included)` });
    }
    // uPlot wraps its canvas in a min-content box with absolutely positioned overlays (cursor,
    // selection): the image replaces the whole plot, so it can shrink to the page width.
    (copy.closest('.uplot') ?? copy).replaceWith(picture);
  });
  for (const holder of clone.querySelectorAll('[role="img"]')) {
    if (holder.querySelector('img.chart-image')) {
      holder.removeAttribute('role');
      holder.removeAttribute('aria-label');
    }
  }
  for (const control of clone.querySelectorAll('input, select, textarea')) (control.closest('label') ?? control).remove();
  // The verdict opens the report on its own; the choice of variant, the sharing of settings
  // and the weight controls are the page's (the text below them names the weight used).
  // "Make a safe release" is a form: the report tells the release written in a part of its own
  // (protection-html.ts).
  const drop = 'button, .chart-readout, .drilldown, .all-metrics, .report-variant, .share-settings, .choice-controls, #verdict, #protect-section';
  for (const node of clone.querySelectorAll(drop)) node.remove();
  for (const d of clone.querySelectorAll('details')) d.setAttribute('open', '');
  // The contents keep only the sections the report holds.
  for (const a of clone.querySelectorAll('.results-toc a[href^="#"]')) {
    if (!clone.querySelector(`[id="${a.getAttribute('href')!.slice(1)}"]`)) a.closest('li')?.remove();
  }
  // Short tables print on one page; long ones may break between rows.
  for (const wrap of clone.querySelectorAll('.table-wrap')) {
    if (wrap.querySelectorAll('tr').length <= KEEP_TOGETHER_ROWS) wrap.classList.add('keep');
  }
  for (const node of clone.querySelectorAll('[tabindex]')) node.removeAttribute('tabindex');
  for (const node of clone.querySelectorAll('[aria-live]')) node.removeAttribute('aria-live');
  const title = clone.querySelector('#results-title');
  if (title) title.textContent = 'Results as shown on the page';
  // A panel drawn out of sight (the shareable variant's) comes into the report as any other.
  for (const name of ['hidden', 'style', 'inert', 'aria-hidden']) clone.removeAttribute(name);
  clone.id = 'report-results';
  return clone.outerHTML;
}

/** The text of every CSS rule the page uses, without its own print rules (they hide panels). */
export function pageCss(): string {
  const parts: string[] = [];
  for (const sheet of document.styleSheets) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // not readable (another origin); the page loads none
    }
    for (const rule of rules) {
      if (rule instanceof CSSMediaRule && /\bprint\b/.test(rule.conditionText)) continue;
      parts.push(rule.cssText);
    }
  }
  return parts.join('\n');
}

// --- the report -----------------------------------------------------------------------------

/** The report's own rules, after the page's: layout of the added parts and the print rules. */
const REPORT_CSS = `
body.report { background: var(--bg-soft, #f5f7f9); }
.report-header .meta { color: var(--muted, #4a5361); margin: 0; }
.report-header .meta strong { color: var(--text, #1b1f24); }
.report .hash { font-family: var(--mono, monospace); font-size: 0.8rem; overflow-wrap: anywhere; word-break: break-all; }
.report .kv th[scope="row"] { font-weight: 600; width: 40%; }
.report .param-key { display: block; font-weight: 400; font-size: 0.75rem; color: var(--muted, #4a5361); overflow-wrap: anywhere; }
.report .settings { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 0.35rem 1.25rem; margin: 0; }
.report .setting { border-bottom: 1px solid var(--line, #d5dae1); padding: 0.2rem 0 0.3rem; min-width: 0; }
.report .setting dt { font-weight: 600; font-size: 0.85rem; line-height: 1.3; }
.report .setting dd { margin: 0.1rem 0 0; overflow-wrap: anywhere; }
.report .setting dd.unset { color: var(--muted, #4a5361); font-style: italic; }
.report .metric-table { table-layout: fixed; }
.report .metric-table .c-id { width: 30%; }
.report .metric-table .c-value { width: 28%; }
.report .metric-table .c-explain { width: 42%; }
.report .metric-table td { overflow-wrap: break-word; }
.report .metric-table .value-json { overflow-wrap: anywhere; }
.report .metric-table .metric-id { font-size: 0.8rem; }
.report .metric-table .explain { color: var(--muted, #4a5361); font-size: 0.85rem; }
.report .metric-table .family-row th { background: var(--accent-soft, #e8f0f8); text-transform: capitalize; }
.report .metric-value { font-variant-numeric: tabular-nums; }
.report .metric-warnings { display: block; color: var(--note, #6b4e00); font-size: 0.8rem; }
.report .metric-interval { display: block; color: var(--muted, #4a5361); font-size: 0.8rem; font-variant-numeric: tabular-nums; }
.report .status-off { color: var(--note, #6b4e00); }
.report .status-error { color: var(--error, #a1261b); }
.report .value-json { display: block; font-size: 0.75rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.report .scope { display: block; color: var(--muted, #4a5361); font-size: 0.8rem; }
.report img.chart-image { display: block; max-width: 100%; height: auto; }
.report .table-wrap { max-height: none; overflow-y: visible; }
.report #report-results .results-head { margin-bottom: 0.5rem; }
.report .site-footer p { margin: 0 0 0.25rem; }
.report .disclosure { border: 2px solid var(--line, #d5dae1); border-radius: 6px; padding: 0.75rem 1rem; margin: 0 0 1rem; background: #fff; }
.report .disclosure h2 { font-size: 1.1rem; margin: 0 0 0.25rem; }
.report .disclosure p { margin: 0; }
.report .disclosure-confidential { border-color: var(--error, #a1261b); background: #fdf0ee; }
.report .disclosure-confidential h2 { color: var(--error, #a1261b); }
.report .disclosure-shareable { border-color: var(--ok, #1e6b3a); }
.report .hierarchy-csv { font-family: var(--mono, monospace); font-size: 0.8rem; max-height: 20rem; overflow: auto; margin: 0 0 1rem; padding: 0.5rem; background: #fff; border: 1px solid var(--line, #d5dae1); }
.report .protection-figures thead th + th { text-align: right; }
@media (max-width: 30rem) {
  .report #report-protection table { font-size: 0.85rem; }
  .report #report-protection th, .report #report-protection td { padding: 0.35rem 0.4rem; }
  .report #report-protection thead th, .report #report-protection td.num { white-space: normal; }
}

@media print {
  @page { margin: 14mm 12mm; }
  html, body.report { background: #fff !important; color: #000; font-size: 10pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; box-shadow: none !important; }
  .wrap { max-width: none; padding: 0; }
  .site-header { border-bottom: 2px solid #000; margin-bottom: 0.75rem; }
  .panel { border: 0; border-radius: 0; padding: 0; margin: 0 0 1.25rem; background: #fff; }
  #report-results, #report-protection, #report-metrics, #report-inputs { break-before: page; }
  .report .hierarchy-csv { max-height: none; overflow: visible; white-space: pre-wrap; }
  .disclosure-confidential { border: 2px solid #000 !important; }
  h2, h3, h4, summary { break-after: avoid; page-break-after: avoid; }
  .keep, tr, .card, .fact, .setting, .verdict, .headline-stat, .bar-row, .message, .note, .alert,
  img.chart-image, .facts, .cards, .result-section > p { break-inside: avoid; page-break-inside: avoid; }
  thead { display: table-header-group; }
  .table-wrap { overflow: visible !important; border-color: #999; }
  table { font-size: 8.5pt; }
  th, td { white-space: normal !important; padding: 0.25rem 0.4rem; }
  thead th, .report .metric-table .family-row th { background: #eef0f3 !important; }
  .light { background: #fff !important; border: 1px solid #777; }
  .lamp { opacity: 0.15; border: 1px solid #555; }
  .lamp.on { opacity: 1; }
  .chart-grid { display: block; }
  .chart-grid > * { margin-bottom: 1rem; }
  .chart { overflow: visible; }
  .report img.chart-image { max-width: 100% !important; height: auto !important; }
  .cards { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  details > summary { list-style: none; color: #000; }
  details > summary::-webkit-details-marker { display: none; }
  .results-summary, .results-toc { display: none !important; }
  .section-summary::before { content: none; }
  .section-summary { border: 0; padding: 0; background: none; }
}
`;

/** The Content-Security-Policy of the saved file: its own styles and data: images, nothing else. */
const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** One file of the report: what it is, its name, how it was read and its size on disk. */
function inputRow(what: string, name: string | null, facts: InputFacts | null | undefined, fileBytes: number | null): string {
  // The account of the file: every byte (against the file's size) and every record.
  const size = facts ? `${fileSize(facts.bytes)}: ${bytesText(facts, fileBytes)}` : '—';
  const records = facts ? `${recordsText(facts)}; ${count(facts.columns)} columns` : '—';
  const read = facts ? (facts.format === 'csv' ? `${facts.encoding}, delimiter ${delimiterName(facts.delimiter)}` : readAsText(facts)) : '—';
  const hash = facts?.sha256 ? `<code class="hash">${esc(facts.sha256)}</code>` : '<span class="blank">not computed</span>';
  return (
    `<tr data-input="${esc(what)}"><th scope="row">${esc(what)}</th><td>${esc(name ?? '(unnamed)')}</td>` +
    `<td class="num">${esc(size)}</td><td>${esc(records)}</td><td>${esc(read)}</td><td>${hash}</td></tr>`
  );
}

/** The side tables of a report (original, population), those it names or read. */
function sideRows(report: Report, names: InputNames): string[] {
  const sizes = names.sizes ?? { released: null, original: null, reference: null };
  const sides: [string, string | null, InputFacts | null | undefined, number | null][] = [
    ['Original table (utility)', names.original, report.original_input, sizes.original],
    ['Population / reference table', names.reference, report.reference_input, sizes.reference],
  ];
  return sides.filter(([, name, facts]) => name !== null || facts).map((t) => inputRow(...t));
}

function inputRows(report: Report, names: InputNames): string[] {
  return [inputRow('Released file (audited)', names.released, report.input, names.sizes?.released ?? null), ...sideRows(report, names)];
}

/** Column roles, in the order a reader checks them. */
const ROLE_KEYS: readonly [string, string][] = [
  ['quasi_identifiers', 'Quasi-identifiers (what an attacker may know)'],
  ['sensitive', 'Sensitive columns'],
  ['record_id', 'Record id (pairs original and released rows)'],
  ['person_id', 'Person id (several rows per person)'],
  ['weight', 'Sampling weight'],
  ['household_column', 'Household id (the household risk groups rows by it)'],
  ['ignored', 'Ignored and direct identifiers (left out of every computation)'],
];

/** Labels of the policies and thresholds; any other setting is listed under its key. */
const PARAM_LABELS: Readonly<Record<string, string>> = {
  missing_policy: 'Blank cells (missing-value policy)',
  wildcard_alpha: 'Wildcard α (weight of a blank match)',
  exclude_suppressed_rows: 'Leave out fully suppressed rows',
  threshold: 'Threshold τ (a record is at risk above it)',
  records_at_risk_threshold: 'ARX verdict: largest share of records at risk',
  success_rate_threshold: 'ARX verdict: largest attacker success rate',
  population_size: 'Population size N',
  sampling_fraction: 'Sampling fraction',
  population_region: 'Population region',
  l_threshold: 'List classes with fewer distinct values than l',
  t_threshold: 'List classes farther than t',
  beta_threshold: 'List classes with β above',
  t_distance: 't-closeness: distance',
  t_reference: 't-closeness: compared with the released or the original file',
  sa_mode: 'Several sensitive columns',
  recursive_l: 'Recursive (c,l)-diversity: l',
  recursive_c: 'Recursive (c,l)-diversity: c',
  scorr_k_min: 'SCORR: k must be above',
  scorr_t_max: 'SCORR: t must be at most',
  scorr_low_max: 'SCORR: low band up to',
  scorr_medium_max: 'SCORR: medium band up to',
  scorr_k_basis: 'SCORR: k counted in',
  missing_tokens: 'Cells read as blank',
  case_insensitive: 'Values compared case-insensitively',
  delimiter: 'Delimiter',
  encoding: 'Encoding',
  ragged: 'Rows with too few or too many cells',
  header_row: 'Header row',
  utility_columns: 'Utility columns of the original',
  permutation_columns: 'Permutation-model columns',
  ctbil_variables: 'CTBIL variables',
  ci_level: 'Confidence level of the intervals',
  ci_seed: 'Seed of the intervals’ bootstrap',
  per_record: 'Each record’s risk in the report',
  ci_replicates: 'Bootstrap replicates of the intervals (0 = none)',
};

/** What an empty list or a null setting means, where it is not simply "not set". */
const DEFAULT_MEANING: Readonly<Record<string, string>> = {
  delimiter: 'detected',
  encoding: 'detected',
  header_row: 'detected',
  utility_columns: 'every column of the original',
  permutation_columns: 'every numeric and date column',
  ctbil_variables: 'the quasi-identifiers',
  queries: 'the default workload only',
  attributes: 'nothing declared',
  ignored: 'none',
};

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);
}

function settingText(key: string, v: unknown): string {
  if (isEmpty(v)) return DEFAULT_MEANING[key] ?? (Array.isArray(v) ? 'none' : 'not set');
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v === '' ? '(empty)' : v === '\t' ? 'tab' : v;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.map((x) => (x === '' ? '(empty)' : x)).join(', ');
  return JSON.stringify(v);
}

function rolesSection(report: Report): string {
  const params = report.params as Record<string, unknown>;
  const named = new Set<string>();
  const rows = ROLE_KEYS.map(([key, label]) => {
    const v = params[key];
    if (Array.isArray(v)) for (const c of v) if (typeof c === 'string') named.add(c);
    if (typeof v === 'string') named.add(v);
    return `<tr data-param="${esc(key)}"><th scope="row">${esc(label)}<code class="param-key">${esc(key)}</code></th><td>${esc(settingText(key, v))}</td></tr>`;
  });
  const others = report.columns.map((c) => c.name).filter((n) => !named.has(n));
  rows.push(`<tr data-param="other_columns"><th scope="row">Other columns (no role)</th><td>${esc(settingText('', others))}</td></tr>`);

  const roleKeys = new Set(ROLE_KEYS.map(([k]) => k));
  const settings = Object.entries(params)
    .filter(([key]) => !roleKeys.has(key))
    .sort(([a], [b]) => Number(b in PARAM_LABELS) - Number(a in PARAM_LABELS))
    .map(([key, v]) => {
      const label = PARAM_LABELS[key] ?? key.replace(/_/g, ' ');
      const unset = isEmpty(v) ? ' class="unset"' : '';
      return `<div class="setting" data-param="${esc(key)}"><dt>${esc(label)} <code class="param-key">${esc(key)}</code></dt><dd${unset}>${esc(settingText(key, v))}</dd></div>`;
    });
  return (
    `<section class="panel report-block" id="report-roles" aria-labelledby="roles-title"><h2 id="roles-title">Roles and settings</h2>` +
    htmlTable('Column roles', ['Role', 'Columns'], rows, 'kv') +
    `<h3>Policies and thresholds</h3>` +
    `<dl class="settings">${settings.join('')}</dl>` +
    `</section>`
  );
}

function scopeText(m: MetricResult): string {
  const sensitive = isRecord(m.scope) && typeof m.scope.sensitive === 'string' ? m.scope.sensitive : null;
  const parts = [scopeAttribute(m) ?? scopeSubset(m)?.join(' + '), sensitive === '*' ? 'all sensitive columns' : sensitive];
  return parts.filter((p): p is string => !!p).join(', ');
}

const JSON_PREVIEW = 400;

/** Numbers of a structured value with 4 significant digits, as a preview (the JSON has them all). */
function roundNumbers(_key: string, v: unknown): unknown {
  return typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v;
}

/** The value's confidence interval (`details.ci`, issue 15; docs/ci.md), with its method and seed. */
function intervalHtml(m: MetricResult): string {
  const ci = metricInterval(m);
  if (!ci) return '';
  const at = (x: number) => String(Number(x.toPrecision(4)));
  const how =
    ci.method === 'class_bootstrap_percentile' ? `bootstrap over the classes${ci.seed === null ? '' : `, seed ${ci.seed}`}` : 'linearisation over the classes';
  return `<span class="metric-interval" data-ci="${esc(`${ci.low},${ci.high}`)}">${esc(`${Number((ci.level * 100).toFixed(1))}% interval: ${at(ci.low)} to ${at(ci.high)} (${how})`)}</span>`;
}

/** The value as the page formats it, or why there is none; then its interval and warnings. */
function valueHtml(m: MetricResult, report: Report): string {
  const warnings = m.warnings.length
    ? `<span class="metric-warnings">Warning: ${m.warnings.map((w) => `${esc(reasonText(w))} (<code>${esc(w)}</code>)`).join('; ')}</span>`
    : '';
  if (m.status !== 'ok') {
    const cause = isRecord(m.details) && typeof m.details.cause === 'string' ? ` (${reasonText(m.details.cause)})` : '';
    const cls = m.status === 'error' ? 'status-error' : 'status-off';
    const code = m.reason ? ` <code>${esc(m.reason)}</code>` : '';
    return `<span class="${cls}"><strong>${esc(m.status.replace(/_/g, ' '))}</strong>: ${esc(reasonText(m.reason) + cause)}</span>${code}${warnings}`;
  }
  const text = metricText(m, report);
  if (!/see the JSON report\)?$/.test(text)) return `<span class="metric-value">${esc(text)}</span>${intervalHtml(m)}${warnings}`;
  const json = JSON.stringify(m.value, roundNumbers);
  const shown = json.length > JSON_PREVIEW ? `${json.slice(0, JSON_PREVIEW)}… (the rest in the JSON report)` : json;
  return `<code class="value-json">${esc(shown)}</code>${warnings}`;
}

function metricsSection(report: Report): string {
  const rows: string[] = [];
  let family: string | null = null;
  for (const m of report.metrics) {
    if (m.family !== family) {
      family = m.family;
      rows.push(`<tr class="family-row"><th scope="colgroup" colspan="3">${esc(family.replace(/_/g, ' '))}</th></tr>`);
    }
    const scope = scopeText(m);
    rows.push(
      `<tr data-metric="${esc(m.id)}" data-status="${esc(m.status)}"><td><code class="metric-id">${esc(m.id).replace(/_/g, '_<wbr>')}</code>${scope ? `<span class="scope">${esc(scope)}</span>` : ''}</td>` +
        `<td>${valueHtml(m, report)}</td><td class="explain">${esc(explain(m.id))}</td></tr>`,
    );
  }
  const warnings = report.warnings.length
    ? `<h3>Warnings of the audit</h3><ul class="warnings">${report.warnings.map((w) => `<li>${esc(w.message)} (<code>${esc(w.code)}</code>)</li>`).join('')}</ul>`
    : '';
  const metricTable =
    `<div class="table-wrap"><table class="metric-table"><caption class="visually-hidden">Every metric of the audit</caption>` +
    `<colgroup><col class="c-id"><col class="c-value"><col class="c-explain"></colgroup>` +
    `<thead><tr><th scope="col">Metric</th><th scope="col">Value or status</th><th scope="col">Meaning</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`;
  return (
    `<section class="panel report-block" id="report-metrics" aria-labelledby="metrics-title">` +
    `<h2 id="metrics-title">Every metric (${count(report.metrics.length)})</h2>` +
    `<p class="help">Values are formatted as on the page: scores with 4 decimals, shares as percentages, counts with thousands separators. A metric that could not be computed says why. The JSON report beside this file holds every value in full.</p>` +
    (report.metrics.length ? metricTable : `<p>No metric was computed.</p>`) +
    warnings +
    `</section>`
  );
}

/** The notice at the top: confidential, only aggregates, or the shareable variant; `ladders`:
 * the full report lists the protection's ladders, every value of the quasi-identifiers. */
function disclosureNotice(d: Disclosure, ladders: boolean): string {
  const k = count(d.minCount);
  const listed = 'The ladders of the protection list every value of the quasi-identifiers, rare ones included.';
  const [kind, title, text] = d.shareable
    ? [
        'shareable',
        'Shareable: aggregates only',
        `This is the shareable variant of the report: it holds no value, combination of values, class or query cell of fewer than ${k} records, no sensitive value tied to such a class and no list of records. ${count(d.removed)} ${d.removed === 1 ? 'entry was' : 'entries were'} left out of the full report.`,
      ]
    : d.removed > 0
      ? [
          'confidential',
          'Confidential: this report contains record-level values',
          `${count(d.removed)} ${d.removed === 1 ? 'entry concerns' : 'entries concern'} fewer than ${k} records (rare values, small classes and their sensitive values, small query cells).${ladders ? ` ${listed}` : ''} Treat it like the data itself; to share the results, download the shareable variant instead.`,
        ]
      : ladders
        ? [
            'confidential',
            'Confidential: this report contains record-level values',
            `${listed} Treat it like the data itself; to share the results, download the shareable variant instead.`,
          ]
        : ['aggregates', 'Aggregates only', `This report holds no value, class or query cell of fewer than ${k} records.`];
  return `<section class="disclosure disclosure-${kind}" id="report-disclosure" data-disclosure="${kind}" aria-labelledby="disclosure-title"><h2 id="disclosure-title">${esc(title)}</h2><p>${esc(text)}</p></section>`;
}

/** The verdict and its reasons, as the page shows them (none without quasi-identifiers). */
function verdictSection(report: Report): string {
  if (report.params.quasi_identifiers.length === 0) return '';
  return `<section class="panel report-block" id="report-verdict" aria-label="Verdict">${verdictView(report, scorrBadge(report)).outerHTML}</section>`;
}

function timestamp(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The frame of a saved report: head with its own CSS and CSP, header, main, footer. */
function documentHtml(d: {
  title: string;
  heading: string;
  subtitle: string;
  main: string;
  css: string;
  version: string | null;
  generatedAt: Date;
  footer: string;
}): string {
  const tool = d.version ? `${TOOL} ${d.version}` : TOOL;
  const when = `<time datetime="${esc(d.generatedAt.toISOString())}">${esc(timestamp(d.generatedAt))}</time>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${esc(REPORT_CSP)}">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light">
<meta name="generator" content="${esc(tool)}">
<title>${esc(d.title)}</title>
<style>
${d.css.replace(/<\/style/gi, '<\\/style')}
${REPORT_CSS}
</style>
</head>
<body class="report">
<header class="site-header report-header"><div class="wrap">
<h1>${esc(d.heading)}</h1>
<p class="meta">${esc(d.subtitle)}</p>
<p class="meta">Generated ${when} by <strong data-tool>${esc(tool)}</strong>, in the browser on this computer.</p>
</div></header>
<main class="wrap">
${d.main}
</main>
<footer class="site-footer"><div class="wrap">
<p>Made by ${esc(tool)} from the files on this computer; nothing was uploaded. This file loads nothing from the network.</p>
<p>${esc(d.footer)}</p>
</div></footer>
</body>
</html>
`;
}

function inputsSection(caption: string, rows: string[]): string {
  return (
    `<section class="panel report-block" id="report-inputs" aria-labelledby="inputs-title"><h2 id="inputs-title">Inputs</h2>` +
    `<p class="help">Each file is identified by its SHA-256 hash, computed over its bytes as they were read; the same file always gives the same hash.</p>` +
    htmlTable(caption, ['Table', 'Name', 'Size', 'Records', 'Read as', 'SHA-256'], rows) +
    `</section>`
  );
}

/** The whole report as one HTML document. */
export function htmlReport(parts: HtmlReportParts): string {
  const report = parts.report;
  return documentHtml({
    title: `${TOOL} audit report: ${parts.inputs.released}`,
    heading: `${TOOL} audit report`,
    subtitle: parts.inputs.released,
    main: [
      disclosureNotice(parts.disclosure, parts.protection !== null && !parts.disclosure.shareable),
      verdictSection(report),
      parts.resultsHtml ?? '',
      parts.protection ? protectionSection(parts.protection, parts.disclosure.shareable) : '',
      metricsSection(report),
      inputsSection('The tables of the audit', inputRows(report, parts.inputs)),
      rolesSection(report),
    ].join('\n'),
    css: parts.css,
    version: parts.version,
    generatedAt: parts.generatedAt,
    footer: 'The JSON report saved beside it holds the same results with every detail.',
  });
}

export interface ComparisonReportParts {
  /** Every candidate's report, in the order given, with its file name and size. */
  reports: Report[];
  names: string[];
  sizes: number[];
  original: string | null;
  reference: string | null;
  /** `snapshotResults` of the comparison as the page shows it (its choice first). */
  resultsHtml: string;
  css: string;
  version: string | null;
  generatedAt: Date;
}

/**
 * A candidate comparison as one printable HTML document (issue 13, Deliver 2): what it holds
 * (measures per candidate only), the choice with its reasons and every measure as the page
 * shows them, then the files with their hashes and the settings they were audited with.
 */
export function comparisonHtmlReport(parts: ComparisonReportParts): string {
  const first = parts.reports[0];
  const rows = [
    ...parts.reports.map((r, i) => inputRow(`Candidate ${i + 1}`, parts.names[i] ?? null, r.input, parts.sizes[i] ?? null)),
    ...(first ? sideRows(first, { released: '', original: parts.original, reference: parts.reference }) : []),
  ];
  const notice =
    `<section class="disclosure disclosure-aggregates" id="report-disclosure" data-disclosure="aggregates" aria-labelledby="disclosure-title"><h2 id="disclosure-title">Aggregates only</h2>` +
    `<p>The comparison shows measures per candidate (counts, risks, utility, scores); it lists no record, class or value of the data.</p></section>`;
  return documentHtml({
    title: `${TOOL} comparison report: ${parts.names.join(', ')}`,
    heading: `${TOOL} comparison report`,
    subtitle: `${count(parts.names.length)} candidate releases${parts.original ? ` of ${parts.original}` : ''}: ${parts.names.join(', ')}`,
    main: [notice, parts.resultsHtml, inputsSection('The files of the comparison', rows), first ? rolesSection(first) : ''].join('\n'),
    css: parts.css,
    version: parts.version,
    generatedAt: parts.generatedAt,
    footer: 'The JSON comparison saved beside it holds the same measures with every detail.',
  });
}
