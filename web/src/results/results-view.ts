// Step 3 of the page: the audit results. The verdict (ARX light and SCORR badge) first, then
// the headline cards, the attacker models, attribute disclosure, utility against the original
// table, population uniqueness, what drives the risk, the further risk measures with the SCORR
// verdict, the counts and charts, the riskiest groups with their drill-down, warnings and every
// metric in a table; without quasi-identifiers only utility, warnings and the table. Each part
// lives in its own view; this file only puts them in order, under the summary bar and the
// contents (results-nav.ts). It reads the Report only and computes nothing but display
// formatting.

import { SCOPE_WARNINGS, accountNodes, scopeNodes } from '../ui/account';
import { adviceView } from './advice/advice-view';
import { attacksView } from './attacks/attacks-view';
import { attackersView } from './identity/attackers-view';
import { hipaaView } from './hipaa/hipaa-view';
import { kMapView } from './identity/kmap-view';
import { rowOrderView } from './utility/row-order-view';
import { attributeView } from './attribute/attribute-view';
import { attributionView } from './identity/attribution-view';
import type { ChooseFn } from '../shared/balance-data';
import { balanceView } from './balance/balance-view';
import { afterFrame, append, deferredDetails, dropDeferred, el, scrollTable } from '../ui/dom';
import { drilldownView } from './drilldown/drilldown-view';
import { explain } from '../ui/explain';
import { plural } from '../ui/format';
import { groupsView, headlineCards } from './identity/overview-view';
import { populationView } from './identity/population-view';
import { addNavigation } from './navigation/results-nav';
import type { ClassValues } from '../shared/protocol';
import { isRecord, metric, numberValue, type AuditConfig, type MetricResult, type Report, type ShareableVariant } from '../shared/report';
import { householdView, personsView, scorrView, weightsView } from './identity/risks-view';
import { protectView } from './protect/protect-view';
import type { ProtectEngine, ProtectionReport } from '../shared/protect-data';
import { scorrBadge, scorrVerdictView } from './identity/scorr-verdict-view';
import { scopeAttribute, scopeSubset } from '../shared/suite';
import { utilityView, type UtilityInputs } from './utility/utility-view';
import { reportVariant, type ReportVariant } from './report-variant';
import { settingsShareView } from '../setup/settings-share-view';
import { sudaView } from './suda/suda-view';
import { syntheticView } from './synthetic/synthetic-view';
import { verdictView } from './identity/verdict-view';
import { metricText, section, type Chart, type View } from '../ui/view-kit';

function metricName(m: MetricResult): HTMLElement {
  const sensitive = isRecord(m.scope) && typeof m.scope.sensitive === 'string' ? m.scope.sensitive : null;
  const parts = [scopeAttribute(m) ?? scopeSubset(m)?.join(' + '), sensitive === '*' ? 'all sensitive columns' : sensitive];
  const scope = parts.filter((p): p is string => !!p).join(', ');
  return el('span', {}, el('code', {}, m.id), scope ? ` (${scope})` : null);
}

/** The report's warnings, as the JSON lists them (the core adds the metrics' warnings, one per
 * code naming its metrics): the page shows no warning the JSON lacks. Those on the rows in
 * scope stand beside their account ([`scopeNodes`]), not here a second time. */
function warningsList(report: Report): HTMLElement | null {
  const warnings = report.warnings.filter((w) => !SCOPE_WARNINGS.has(w.code));
  if (warnings.length === 0) return null;
  const items = warnings.map((w) => el('li', { 'data-code': w.code }, `${w.message.charAt(0).toUpperCase()}${w.message.slice(1)} (${w.code})`));
  const node = section('Warnings', 'warnings-title', el('ul', { class: 'warnings' }, ...items));
  node.id = 'warnings-section';
  return node;
}

/** A file without a record to audit: said once, instead of every measure "Not available". */
function noRecords(report: Report, fileLabel: string): HTMLElement | null {
  const audited = numberValue(report, 'n_records');
  if (report.input.rows_total > 0 && audited !== 0) return null;
  const dropped = numberValue(report, 'n_dropped_records') ?? 0;
  const text =
    report.input.rows_total === 0
      ? `${fileLabel} has no records: it holds only its header row, so there is nothing to audit. Choose the file with its data rows.`
      : `No record is left to audit: ${dropped > 0 ? `all ${plural(report.input.rows_total, 'row')} were dropped for a blank quasi-identifier (“Drop the row” in step 2)` : 'every row was left out'}. Choose another policy for blank cells, or other quasi-identifiers.`;
  return el('p', { class: 'alert', id: 'no-records' }, text);
}

function allMetrics(report: Report): HTMLElement {
  return deferredDetails({ class: 'all-metrics', id: 'all-metrics' }, `All ${report.metrics.length} metrics`, () => [
    scrollTable(
      'All metrics',
      ['Metric', 'Value', 'Meaning'],
      report.metrics.map((m) => [metricName(m), metricText(m, report), explain(m.id)]),
    ),
  ]);
}

export interface ResultHandlers {
  /** The File's size (null for the sample): the account of the file compares the bytes read with it. */
  size: number | null;
  onDownload: (variant: ReportVariant) => void;
  /** Saves the self-contained HTML report (report-html.ts). */
  onDownloadHtml: (variant: ReportVariant) => void;
  /** The core's shareable report at the report's own k, to say what the full one holds
   * (null: the download offers no shareable variant, as in the report's own snapshot). */
  shareable: ShareableVariant | null;
  /** Saves these settings as a file (null: no "share these settings"). */
  onDownloadSettings: ((config: AuditConfig) => void) | null;
  onExtract: (classes: ClassValues[]) => void;
  /** Downloads each record's values as CSV (the kept table, else a second read). */
  onPerRecord: () => void;
  /** The original table's name and pairing column, for the utility section. */
  utility: UtilityInputs;
  /** The core's `choose` (run in the worker): the balance section's weights re-score with it. */
  choose?: ChooseFn;
  /** Protect in the worker ("Make a safe release"; null: not offered, as in a report's snapshot). */
  protect?: ProtectEngine | null;
}

/** The charts drawn in each panel (the page's, and the one a shareable HTML report is drawn in). */
const chartsOf = new WeakMap<HTMLElement, Chart[]>();

export function clearResults(panel: HTMLElement): void {
  for (const c of chartsOf.get(panel) ?? []) c.destroy();
  chartsOf.delete(panel);
  dropDeferred(panel);
  panel.replaceChildren();
  panel.hidden = true;
}

export function renderResults(panel: HTMLElement, report: Report, fileLabel: string, handlers: ResultHandlers): void {
  clearResults(panel);
  const qis = report.params.quasi_identifiers;
  const sensitive = report.params.sensitive ?? [];
  const charts: Chart[] = [];
  chartsOf.set(panel, charts);
  const variant = handlers.shareable ? reportVariant(handlers.shareable) : null;
  const full: ReportVariant = { shareable: false, minCount: null };
  // The settings as they are now: the audit's, with the protection chosen since ("Make a safe
  // release", drawn below).
  let protect: ReturnType<typeof protectView> = null;
  const settingsNow = (): AuditConfig => {
    const chosen = protect?.settings() ?? null;
    const { protect: _, ...rest } = report.params;
    return chosen ? { ...rest, protect: chosen } : rest;
  };
  const download = el('button', { id: 'download-json', class: 'button', type: 'button' }, 'Download JSON report');
  download.addEventListener('click', () => handlers.onDownload(variant?.read() ?? full));
  const downloadHtml = el('button', { id: 'download-html', class: 'button', type: 'button' }, 'Download HTML report');
  downloadHtml.addEventListener('click', () => handlers.onDownloadHtml(variant?.read() ?? full));
  const hasVerdict = metric(report, 'verdict_arx_thresholds') !== undefined;

  const population: View = populationView(report);
  const groups: View = groupsView(report);
  const persons = personsView(report);

  const utility: View | null = utilityView(report, handlers.utility);
  const balance: View | null = balanceView(report, fileLabel, handlers.choose ?? null);
  const synthetic: View | null = syntheticView(report);

  panel.append(
    el('div', { class: 'results-head' }, el('h2', { id: 'results-title' }, '3. Results'), el('div', { class: 'downloads' }, download, downloadHtml)),
    ...(variant ? [variant.node] : []),
    ...(handlers.onDownloadSettings ? [settingsShareView(report, settingsNow, handlers.onDownloadSettings)] : []),
    qis.length === 0
      ? el('p', { class: 'lead' }, `${fileLabel}. No quasi-identifiers were chosen, so only the utility results are shown.`)
      : el(
          'p',
          { class: 'lead' },
          `${fileLabel}. Quasi-identifiers: ${qis.join(', ')}. `,
          sensitive.length ? `Sensitive: ${sensitive.join(', ')}. ` : 'No sensitive column. ',
          `Blank cells: ${report.params.missing_policy}. `,
          `Threshold τ = ${report.params.threshold}.`,
        ),
    // Every byte and record of the file, and "partial" when records were left out.
    ...accountNodes(report.input, handlers.size),
    // The rows the audit covered, with a warning when a policy left many out.
    ...scopeNodes(report),
  );
  const empty = noRecords(report, fileLabel);
  if (empty) {
    for (const node of [empty, warningsList(report), allMetrics(report)]) if (node) append(panel, node);
    panel.hidden = false;
    return;
  }
  if (qis.length === 0) {
    const nodes = [
      warningsList(report),
      hipaaView(report),
      ...(utility?.nodes ?? []),
      rowOrderView(report),
      ...(synthetic?.nodes ?? []),
      attacksView(report),
      allMetrics(report),
    ].filter((n): n is HTMLElement => n instanceof HTMLElement);
    append(panel, ...nodes);
    addNavigation(panel, report, nodes);
    panel.hidden = false;
    afterFrame(panel, () => {
      for (const view of [utility, synthetic]) charts.push(...(view?.draw?.() ?? []));
    });
    return;
  }
  // A release written with hierarchies makes the full HTML report confidential: its choice says so.
  const engine = handlers.protect
    ? {
        ...handlers.protect,
        keepProtection: (p: ProtectionReport) => {
          handlers.protect?.keepProtection(p);
          if (Object.keys(p.hierarchies).length) variant?.holdsLadders();
        },
      }
    : null;
  protect = protectView(report, engine);
  const nodes = [
    hasVerdict ? verdictView(report, scorrBadge(report)) : null,
    // The warnings come before the figures they qualify.
    warningsList(report),
    persons?.prominent ? persons.node : null,
    headlineCards(report),
    adviceView(report, protect?.apply ?? null),
    protect?.node ?? null,
    attackersView(report),
    kMapView(report),
    attributeView(report),
    hipaaView(report),
    ...(utility?.nodes ?? []),
    rowOrderView(report),
    ...(synthetic?.nodes ?? []),
    attacksView(report),
    ...(balance?.nodes ?? []),
    ...population.nodes,
    attributionView(report),
    sudaView(report),
    weightsView(report),
    householdView(report),
    persons && !persons.prominent ? persons.node : null,
    scorrView(report),
    scorrVerdictView(report),
    ...groups.nodes,
    drilldownView(report, handlers.onExtract, handlers.onPerRecord),
    allMetrics(report),
  ].filter((n): n is HTMLElement => n instanceof HTMLElement);
  append(panel, ...nodes);
  addNavigation(panel, report, nodes);
  panel.hidden = false;

  // Charts measure their container, so they are drawn once the panel is visible: after the
  // frame that first shows the results (docs/decisions/page/charts-after-first-frame.md).
  afterFrame(panel, () => {
    for (const view of [utility, synthetic, balance, groups, population]) charts.push(...(view?.draw?.() ?? []));
  });
}
