// Protect's settings as the page's form gives them, and what the page says of a node: the
// ladder of a QI from its kind and the text of its parameters (parsed here, checked by the
// core), the criteria from the form's numbers, a node's levels in words, and the ladder an
// advice change asks for; the engine the section asks. The core computes everything else
// (worker/protect.ts).

import type { Effect } from './advice-data';
import {
  PROTECT_DEFAULTS,
  PROTECT_PRESETS,
  type Criteria,
  type Figures,
  type Ladder,
  type LadderView,
  type NodeView,
  type ProtectParams,
  type ProtectSettings,
} from './contract';
import type { AuditProgress } from './protocol';
import { isRecord, metric, numberValue, type MetricResult, type Report } from './report';

/** What "Make a safe release" asks of the engine (app/protect.ts runs each in the worker). */
export interface ProtectEngine {
  propose(qis: string[]): Promise<ProtectParams['ladders']>;
  search(params: ProtectParams, progress: (p: AuditProgress) => void): Promise<{ result: MetricResult; ladders: LadderView[] }>;
  node(levels: number[]): Promise<NodeView>;
  /** Writes the release of `levels` as a download and audits it; `written`: the bytes and the
   * share of the rows written so far. */
  release(levels: number[], written: (bytes: number, share: number) => void): Promise<{ report: Report; checked: boolean }>;
  ladderCsv(qi: string): Promise<string>;
  /** Keeps the protection report of the release just written, for the saved HTML report. */
  keepProtection(report: ProtectionReport): void;
  /** Saves text made here as a file. */
  save(text: string, type: string, name: string): void;
  /** Stops the search or the release (the worker is restarted). */
  cancel(): void;
}

/** The kinds of ladder the form offers; `none`: the value, then `*`. */
export type LadderKind = 'none' | Ladder['kind'];

/** The form's ladder of one QI: its kind and the text of its parameters (a hierarchy: its CSV). */
export interface LadderChoice {
  kind: LadderKind;
  text: string;
}

/** The form's numbers (null: not set); shares in [0, 1]. */
export interface CriteriaChoice {
  k: number | null;
  l: number | null;
  t: number | null;
  averageRisk: number | null;
  suppression: number;
}

/** The parameters of a ladder as the form writes them (`5,10,20`, `month,year`, `4,3`). */
export function ladderText(ladder: Ladder): string {
  switch (ladder.kind) {
    case 'bands':
      return [ladder.widths.join(','), ladder.bottom != null ? `bottom=${ladder.bottom}` : '', ladder.top != null ? `top=${ladder.top}` : '']
        .filter((p) => p)
        .join(',');
    case 'dates':
      return ladder.levels.join(',');
    case 'prefix':
      return ladder.lengths.join(',');
    case 'hierarchy':
      return ladder.csv;
  }
}

/** A list of numbers, or the sentence that says which part is not one. */
function numbers(qi: string, text: string): number[] {
  const parts = text.split(/[,;\s]+/).filter((p) => p !== '');
  const out = parts.map(Number);
  const bad = parts.find((_, i) => !Number.isFinite(out[i]));
  if (bad !== undefined || out.length === 0)
    throw new Error(`The ladder of “${qi}” needs numbers separated by commas${bad !== undefined ? `; “${bad}” is not one` : ''}.`);
  return out;
}

/** The ladder of `qi` from the form, or null for `none`; an Error naming the QI when its text is
 * not the kind's form (the core checks the rest: order, nesting, the values). */
export function ladderOf(qi: string, choice: LadderChoice): Ladder | null {
  const text = choice.text.trim();
  switch (choice.kind) {
    case 'none':
      return null;
    case 'bands': {
      const parts = text.split(',').map((p) => p.trim());
      const coded = (name: string) => {
        const part = parts.find((p) => p.startsWith(`${name}=`));
        return part === undefined ? null : numbers(qi, part.slice(name.length + 1))[0];
      };
      const widths = numbers(qi, parts.filter((p) => !p.includes('=')).join(','));
      return { kind: 'bands', widths, bottom: coded('bottom'), top: coded('top') };
    }
    case 'dates': {
      const levels = text.split(/[,\s]+/).filter((p) => p !== '');
      const bad = levels.find((l) => l !== 'month' && l !== 'quarter' && l !== 'year');
      if (bad !== undefined || levels.length === 0)
        throw new Error(`The ladder of “${qi}” takes month, quarter and year, in this order${bad ? `; “${bad}” is none of them` : ''}.`);
      return { kind: 'dates', levels: levels as ('month' | 'quarter' | 'year')[] };
    }
    case 'prefix':
      return { kind: 'prefix', lengths: numbers(qi, text) };
    case 'hierarchy':
      if (text === '') throw new Error(`Choose the hierarchy file of “${qi}” (ARX's layout: one row per value, then its label per level).`);
      return { kind: 'hierarchy', csv: choice.text };
  }
}

/** The settings of a search. */
export function protectParams(
  qis: string[],
  sensitive: string[],
  ladders: Record<string, LadderChoice>,
  criteria: CriteriaChoice,
  policy: ProtectParams['missing_policy'],
  threshold: number,
): ProtectParams {
  const built: Record<string, Ladder> = {};
  for (const q of qis) {
    const ladder = ladderOf(q, ladders[q] ?? { kind: 'none', text: '' });
    if (ladder) built[q] = ladder;
  }
  const c: Criteria = { k: criteria.k, l: criteria.l, t: criteria.t, t_distance: 'auto', average_risk: criteria.averageRisk };
  return {
    ...(PROTECT_DEFAULTS as unknown as ProtectParams),
    quasi_identifiers: qis,
    sensitive: criteria.l !== null || criteria.t !== null ? sensitive : [],
    ladders: built,
    criteria: c,
    suppression_limit: criteria.suppression,
    missing_policy: policy === 'wildcard' ? 'ordinary' : policy,
    risk_threshold: threshold,
    node: null,
  };
}

/** The protection of a search's `params` and the node chosen, as the settings file and the
 * link carry it (`AuditConfig.protect`; `pseudolens protect --settings` reads it). */
export function protectSettings(params: ProtectParams, node: Record<string, number> | null): ProtectSettings {
  const { ladders, criteria, suppression_limit, objective, suppressed, max_nodes } = params;
  return { ladders, criteria, suppression_limit, objective, suppressed, max_nodes, node };
}

/** The form as settings from a link or a settings file set it: each ladder's choice, the
 * criteria, and the preset they are (`custom` when none). */
export function protectForm(settings: ProtectSettings): { ladders: Record<string, LadderChoice>; criteria: CriteriaChoice; preset: string } {
  const c = settings.criteria;
  const criteria = { k: c.k, l: c.l, t: c.t, averageRisk: c.average_risk, suppression: settings.suppression_limit };
  const preset = PROTECT_PRESETS.find(
    (p) =>
      p.criteria.k === c.k &&
      p.criteria.l === c.l &&
      p.criteria.t === c.t &&
      p.criteria.average_risk === c.average_risk &&
      p.suppression_limit === settings.suppression_limit,
  );
  const ladders = Object.fromEntries(Object.entries(settings.ladders).map(([q, l]) => [q, { kind: l.kind, text: ladderText(l) }]));
  return { ladders, criteria, preset: preset?.id ?? 'custom' };
}

/** A node's levels in words: `age: bands of 10, zip: 104**` (a QI at level 0 left out). */
export function nodeWords(ladders: LadderView[], levels: number[]): string {
  const changed = ladders.map((l, i) => (levels[i] ? `${l.qi}: ${l.levels[levels[i]]?.name ?? levels[i]}` : null)).filter((s) => s);
  return changed.length ? changed.join(', ') : 'every value as it is';
}

/** The levels of `{qi: level}` in the ladders' order. */
export function levelsOf(ladders: LadderView[], named: Record<string, number> | null | undefined): number[] {
  return ladders.map((l) => named?.[l.qi] ?? 0);
}

/** A node's utility for the risk-utility map: 1 minus its loss. */
export function nodeUtility(node: NodeView): number {
  return 1 - node.figures.loss;
}

/** The ladder (and the level of it) an advice change asks for, or null when it is no ladder
 * (suppressing records: a criterion with a suppression limit instead). Dropping a QI is its
 * top level. */
export function adviceLadder(effect: Effect): { qi: string; choice: LadderChoice | null; level: number | 'top' } | null {
  const c = effect.change;
  if (!c.column) return null;
  switch (c.kind) {
    case 'drop':
      return { qi: c.column, choice: null, level: 'top' };
    case 'bands':
      return { qi: c.column, choice: { kind: 'bands', text: String(c.width) }, level: 1 };
    case 'month':
      return { qi: c.column, choice: { kind: 'dates', text: 'month,year' }, level: 1 };
    case 'year':
      return { qi: c.column, choice: { kind: 'dates', text: 'year' }, level: 1 };
    case 'truncate':
      return { qi: c.column, choice: { kind: 'prefix', text: String(c.keep) }, level: 1 };
    default:
      return null;
  }
}

/** The headline figures of an audit that the protection report sets side by side. */
export interface AuditHeadline {
  verdict: string | null;
  records: number | null;
  k: number | null;
  uniques: number | null;
  records_at_risk: number | null;
  average_risk: number | null;
}

/** The headline figures of `report`. */
export function auditHeadline(report: Report): AuditHeadline {
  const light = metric(report, 'verdict_arx_thresholds')?.details;
  return {
    verdict: isRecord(light) && typeof light.light === 'string' ? light.light : null,
    records: numberValue(report, 'n_records'),
    k: numberValue(report, 'k_anonymity'),
    uniques: numberValue(report, 'sample_uniques'),
    records_at_risk: numberValue(report, 'prosecutor_records_at_risk'),
    average_risk: numberValue(report, 'r_internal'),
  };
}

/** The protection report (issue 38, Deliver 4) of a release written: the search's `protect`
 * result (its criteria, suppression limit, ladders and lattice), the node written with its
 * levels' names and predicted figures, whether the release's audit gives them, each ladder in
 * ARX's layout, and the original's and the release's headline figures; saved as JSON and told
 * in the HTML report (export/protection-html.ts). Its hierarchies list every value of each
 * ladder: not shareable. */
export interface ProtectionReport {
  protect: MetricResult;
  written: {
    levels: Record<string, number>;
    labels: Record<string, string | null>;
    feasible: boolean;
    predicted: Figures;
  };
  /** The release's audit gives the predicted figures (false: not checked, every QI at the top
   * of its ladder, where no record stays in scope). */
  checked: boolean;
  hierarchies: Record<string, string>;
  before: AuditHeadline | null;
  after: AuditHeadline;
}

/** The protection report of the release of `written`, audited as `released`. */
export function protectionReport(
  result: MetricResult,
  ladders: LadderView[],
  written: NodeView,
  hierarchies: Record<string, string>,
  original: Report | null,
  released: { report: Report; checked: boolean },
): ProtectionReport {
  return {
    protect: result,
    written: {
      levels: Object.fromEntries(ladders.map((l, i) => [l.qi, written.levels[i]])),
      labels: Object.fromEntries(ladders.map((l, i) => [l.qi, l.levels[written.levels[i]]?.name ?? null])),
      feasible: written.feasible,
      predicted: written.figures,
    },
    checked: released.checked,
    hierarchies,
    before: original ? auditHeadline(original) : null,
    after: auditHeadline(released.report),
  };
}
