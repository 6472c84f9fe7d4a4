// Column roles and the audit settings: what the user decides before the audit, and how those
// decisions become an AuditConfig. Pure logic, no DOM.

import type { AuditConfig, ColumnProfile, Encoding, MissingPolicy, Role } from '../shared/report';
import { ADVICE_DEFAULTS, CONFIG_DEFAULTS, REGIONS as CORE_REGIONS, type AttributeSettings, type DateForm } from '../shared/contract';
import { defaultAttacks } from '../shared/attack-data';
import { defaultSynthetic } from '../shared/synthetic-data';
import { DEFAULT_BALANCE, DEFAULT_PEERS, validateBalance, validatePeers, type PopulationSize, type Settings } from './settings';

/** The roles the page offers: the four the engine proposes, plus four the user assigns. */
export type ColumnRole = Role | 'person_id' | 'weight' | 'household_id' | 'ignored';

export const ROLES: readonly ColumnRole[] = [
  'quasi_identifier',
  'sensitive',
  'direct_identifier',
  'insensitive',
  'person_id',
  'weight',
  'household_id',
  'ignored',
];

/** Roles at most one column can have. */
export const SINGLE_ROLES: readonly ColumnRole[] = ['person_id', 'weight', 'household_id'];

export const ROLE_LABELS: Readonly<Record<ColumnRole, string>> = {
  quasi_identifier: 'Quasi-identifier',
  sensitive: 'Sensitive',
  direct_identifier: 'Direct identifier',
  insensitive: 'Other',
  person_id: 'Person id (event-level data)',
  weight: 'Sampling weight',
  household_id: 'Household id',
  ignored: 'Ignored',
};

export const ROLE_HELP: Readonly<Record<ColumnRole, string>> = {
  quasi_identifier: 'Known to outsiders (age, sex, postcode, dates): used to group records.',
  sensitive: 'Confidential content (such as a diagnosis): not used to group records.',
  direct_identifier: 'Names the person (name, record number): should not be released; left out of every measure.',
  insensitive: 'Neither identifying nor sensitive: not part of the risk audit, but compared with the original table for utility.',
  person_id: 'Tells which rows belong to the same person when one person can have several rows (such as one row per hospital stay).',
  weight: 'How many people of the population each row stands for, as in a survey sample.',
  household_id:
    'Tells which rows live in the same household: the household risk is the chance that at least one member is re-identified. Not a quasi-identifier, and never compared with the original table.',
  ignored: 'Left out of everything: neither audited for risk nor compared with the original table.',
};

export const MISSING_POLICIES: readonly MissingPolicy[] = ['ordinary', 'wildcard', 'drop'];

// The core's defaults (contract.ts, generated from the Rust types), not copies.
export const DEFAULT_THRESHOLD = CONFIG_DEFAULTS.threshold;
export const DEFAULT_RECORDS_AT_RISK_THRESHOLD = CONFIG_DEFAULTS.records_at_risk_threshold;
export const DEFAULT_SUCCESS_RATE_THRESHOLD = CONFIG_DEFAULTS.success_rate_threshold;
/** The level of the confidence intervals (issue 15; docs/ci.md). */
export const DEFAULT_CI_LEVEL = CONFIG_DEFAULTS.ci_level;
/** The k under which the advice's suppression removes a class's records. */
export const DEFAULT_ADVICE_K = ADVICE_DEFAULTS.suppress_below;
/**
 * Attribute disclosure: the page checks l and t by default (the core checks none unless asked),
 * beta only when the user gives one.
 */
export const DEFAULT_L_THRESHOLD = 2;
export const DEFAULT_T_THRESHOLD = 0.5;
/** The SCORR verdict ([SCORR] Sec IV-B): k above 10 and t at most 0.5. */
export const DEFAULT_SCORR_K_MIN = CONFIG_DEFAULTS.scorr_k_min;
export const DEFAULT_SCORR_T_MAX = CONFIG_DEFAULTS.scorr_t_max;

/** The ARX region presets (spec identity-risk.md Sec 7), with their population. */
export const REGIONS: readonly (readonly [string, number])[] = CORE_REGIONS;

/** Roles per column name, in file order. */
export type RoleTable = Map<string, ColumnRole>;

export function proposedRoles(columns: readonly ColumnProfile[]): RoleTable {
  return new Map(columns.map((c) => [c.name, c.proposed_role]));
}

export function columnsWithRole(roles: RoleTable, role: ColumnRole): string[] {
  return [...roles].filter(([, r]) => r === role).map(([name]) => name);
}

/**
 * Gives `column` the role `role`. For a single role, the column that had it before goes back
 * to "Other"; its name is returned so the page can say so.
 */
export function assignRole(roles: RoleTable, column: string, role: ColumnRole): string | null {
  let displaced: string | null = null;
  if (SINGLE_ROLES.includes(role)) {
    for (const [name, r] of roles) {
      if (r === role && name !== column) {
        roles.set(name, 'insensitive');
        displaced = name;
      }
    }
  }
  roles.set(column, role);
  return displaced;
}

/** The form's settings plus the roles, and the encoding found by the profile pass (set to
 * skip a second windows-1252 retry). */
export interface AuditChoices extends Settings {
  roles: RoleTable;
  encoding: Encoding | null;
  /** The written form of a date column the user set (`date_form`): column -> form. */
  dateForms: Record<string, DateForm>;
}

/** The settings of the sample run and the defaults of the form. */
export function defaultChoices(roles: RoleTable, encoding: Encoding | null): AuditChoices {
  return {
    roles,
    missingPolicy: 'ordinary',
    threshold: DEFAULT_THRESHOLD,
    recordsAtRiskThreshold: DEFAULT_RECORDS_AT_RISK_THRESHOLD,
    successRateThreshold: DEFAULT_SUCCESS_RATE_THRESHOLD,
    ciLevel: DEFAULT_CI_LEVEL,
    adviceK: DEFAULT_ADVICE_K,
    suda: false,
    caseInsensitive: false,
    population: { kind: 'none' },
    lThreshold: DEFAULT_L_THRESHOLD,
    tThreshold: DEFAULT_T_THRESHOLD,
    betaThreshold: null,
    scorrKMin: DEFAULT_SCORR_K_MIN,
    scorrTMax: DEFAULT_SCORR_T_MAX,
    scorrKBasis: 'records',
    tDistance: CONFIG_DEFAULTS.t_distance,
    tReference: CONFIG_DEFAULTS.t_reference,
    saMode: CONFIG_DEFAULTS.sa_mode,
    orders: {},
    hierarchies: {},
    ...DEFAULT_BALANCE,
    ...DEFAULT_PEERS,
    reference: null,
    referenceColumns: {},
    original: null,
    recordId: null,
    queries: [],
    attacks: null,
    control: null,
    synthetic: false,
    encoding,
    dateForms: {},
  };
}

const inUnit = (x: number) => x > 0 && x <= 1;

/** Why the choices cannot run yet, or null when they can. */
export function validate(choices: AuditChoices): string | null {
  // With an original table the utility results alone are worth a run.
  if (columnsWithRole(choices.roles, 'quasi_identifier').length === 0 && !choices.original) {
    return 'Mark at least one column as a quasi-identifier (the audit groups records by those columns), or give an original table to measure utility only.';
  }
  for (const role of SINGLE_ROLES) {
    if (columnsWithRole(choices.roles, role).length > 1) return `Only one column can be the ${ROLE_LABELS[role].toLowerCase()}.`;
  }
  if (!inUnit(choices.threshold)) return 'The threshold τ must be a number above 0 and at most 1.';
  if (!inUnit(choices.recordsAtRiskThreshold)) {
    return 'The records-at-risk threshold must be a number above 0 and at most 1.';
  }
  if (!inUnit(choices.successRateThreshold)) return 'The success-rate threshold must be a number above 0 and at most 1.';
  if (!(choices.ciLevel > 0 && choices.ciLevel < 1)) return 'The confidence level must be a number above 0 and below 1, such as 0.95.';
  if (!(Number.isSafeInteger(choices.adviceK) && choices.adviceK >= 2)) {
    return 'The k of the suggested suppression must be a whole number of at least 2.';
  }
  const p = choices.population;
  if (p.kind === 'size' && !(Number.isSafeInteger(p.size) && p.size >= 1)) {
    return 'The population size must be a whole number of people, at least 1.';
  }
  if (p.kind === 'fraction' && !inUnit(p.fraction)) return 'The sampling fraction must be a number above 0 and at most 1.';
  return validateAttribute(choices) ?? validateBalance(choices) ?? validatePeers(choices) ?? validateAttacks(choices);
}

const finite = (x: number) => Number.isFinite(x);

/** The attacks' number of attacks and seed (the rest comes from a settings link, checked by the engine). */
function validateAttacks(c: AuditChoices): string | null {
  if (!c.attacks) return null;
  if (!(Number.isSafeInteger(c.attacks.n_attacks) && c.attacks.n_attacks >= 1)) return 'The number of attacks must be a whole number of at least 1.';
  if (!(Number.isSafeInteger(c.attacks.seed) && c.attacks.seed >= 0)) return 'The seed of the attacks must be a whole number of at least 0.';
  return null;
}

/** The attribute-disclosure and SCORR settings. */
function validateAttribute(c: AuditChoices): string | null {
  if (!(finite(c.lThreshold) && c.lThreshold >= 1)) return 'The l threshold must be a number of at least 1.';
  if (!(finite(c.tThreshold) && c.tThreshold >= 0 && c.tThreshold <= 1)) return 'The t threshold must be a number from 0 to 1.';
  if (c.betaThreshold !== null && !(finite(c.betaThreshold) && c.betaThreshold >= 0)) {
    return 'The β threshold must be a number of at least 0, or left empty.';
  }
  if (!(finite(c.scorrKMin) && c.scorrKMin >= 0)) return 'The SCORR k must be a number of at least 0.';
  if (!(finite(c.scorrTMax) && c.scorrTMax >= 0 && c.scorrTMax <= 1)) return 'The SCORR t must be a number from 0 to 1.';
  if (c.scorrKBasis === 'persons' && columnsWithRole(c.roles, 'person_id').length === 0) {
    return 'Counting k in persons needs a column with the role "Person id"; choose one, or count k in records.';
  }
  return null;
}

export function auditConfig(choices: AuditChoices): AuditConfig {
  const p = choices.population;
  return {
    quasi_identifiers: columnsWithRole(choices.roles, 'quasi_identifier'),
    sensitive: columnsWithRole(choices.roles, 'sensitive'),
    missing_policy: choices.missingPolicy,
    threshold: choices.threshold,
    records_at_risk_threshold: choices.recordsAtRiskThreshold,
    success_rate_threshold: choices.successRateThreshold,
    ci_level: choices.ciLevel,
    advice: { suppress_below: choices.adviceK },
    suda: choices.suda,
    case_insensitive: choices.caseInsensitive,
    person_id: columnsWithRole(choices.roles, 'person_id')[0] ?? null,
    weight: columnsWithRole(choices.roles, 'weight')[0] ?? null,
    household_column: columnsWithRole(choices.roles, 'household_id')[0] ?? null,
    population_size: p.kind === 'size' ? p.size : null,
    sampling_fraction: p.kind === 'fraction' ? p.fraction : null,
    population_region: p.kind === 'region' ? p.region : null,
    l_threshold: choices.lThreshold,
    t_threshold: choices.tThreshold,
    beta_threshold: choices.betaThreshold,
    scorr_k_min: choices.scorrKMin,
    scorr_t_max: choices.scorrTMax,
    scorr_k_basis: choices.scorrKBasis,
    t_distance: choices.tDistance,
    t_reference: choices.tReference,
    sa_mode: choices.saMode,
    ...declaredAttributes(choices),
    record_id: choices.original ? choices.recordId : null,
    ...(choices.reference && Object.keys(choices.referenceColumns).length ? { reference_columns: { ...choices.referenceColumns } } : {}),
    ...(choices.original && choices.queries.length ? { queries: choices.queries } : {}),
    attacks: choices.attacks ? { ...choices.attacks } : null,
    synthetic: choices.original && choices.synthetic ? defaultSynthetic() : null,
    ignored: ignoredColumns(choices.roles),
    risk_combination: choices.riskCombination,
    risk_weight_internal: choices.riskWeightInternal,
    rut_alpha: choices.rutAlpha,
    k_map: choices.kMap,
    k_map_alpha: choices.kMapAlpha,
    k_map_estimator: choices.kMapEstimator,
    delta_min: choices.deltaMin,
    delta_max: choices.deltaMax,
    research_subset_column: choices.researchSubsetColumn,
    hipaa: choices.hipaa,
    row_order_threshold: choices.rowOrderThreshold,
    per_record: choices.perRecord,
    encoding: choices.encoding,
  };
}

/** The sensitive columns' ordinal orders and hierarchies, and every column's date form, that
 * `config.attributes` declares. */
function declaredOf(config: AuditConfig): Pick<AuditChoices, 'orders' | 'hierarchies' | 'dateForms'> {
  const orders: Record<string, string[]> = {};
  const hierarchies: Record<string, string[][]> = {};
  for (const column of config.sensitive ?? []) {
    const a = config.attributes?.[column];
    if (a?.kind === 'ordinal' && a.order) orders[column] = [...a.order];
    if (a?.hierarchy) hierarchies[column] = a.hierarchy.map((r) => [...r]);
  }
  const dateForms: Record<string, DateForm> = {};
  for (const [column, a] of Object.entries(config.attributes ?? {})) if (a?.date_form) dateForms[column] = a.date_form;
  return { orders, hierarchies, dateForms };
}

/** The ordinal orders and hierarchies of the sensitive columns and the date forms set, as
 * `attributes` (none: no key). */
function declaredAttributes(choices: AuditChoices): Pick<AuditConfig, 'attributes'> {
  const sensitive = new Set(columnsWithRole(choices.roles, 'sensitive'));
  const attributes: Record<string, Partial<AttributeSettings>> = {};
  for (const [column, order] of Object.entries(choices.orders)) {
    if (sensitive.has(column)) attributes[column] = { kind: 'ordinal', order: [...order] };
  }
  for (const [column, rows] of Object.entries(choices.hierarchies)) {
    if (sensitive.has(column)) attributes[column] = { ...attributes[column], hierarchy: rows.map((r) => [...r]) };
  }
  for (const [column, form] of Object.entries(choices.dateForms)) attributes[column] = { ...attributes[column], date_form: form };
  return Object.keys(attributes).length ? { attributes: attributes as Record<string, AttributeSettings> } : {};
}

/**
 * A link's or settings file's `attributes` under the form's. The form holds every sensitive
 * column's order and hierarchy and every column's date form (it read them from the file:
 * `choicesFromConfig`), so for those the file's order, ordinal kind, hierarchy and date form
 * give way to the form's; every other setting of the file stays (a utility column's kind or
 * hierarchy, a weight).
 */
export function mergeAttributes(base: AuditConfig['attributes'], form: AuditConfig['attributes'], sensitive: readonly string[]): AuditConfig['attributes'] {
  if (!base) return form;
  const out: Record<string, AttributeSettings> = {};
  for (const [column, settings] of Object.entries(base)) {
    out[column] = sensitive.includes(column)
      ? { ...settings, kind: settings.kind === 'ordinal' ? null : settings.kind, order: null, hierarchy: null, date_form: null }
      : { ...settings, date_form: null };
  }
  for (const [column, settings] of Object.entries(form ?? {})) out[column] = { ...(out[column] ?? {}), ...settings };
  return out;
}

/**
 * Columns left out of every computation: those marked "Ignored" and the direct identifiers.
 * The utility attributes are the original's other columns; the engine itself leaves out the
 * record id, person id, weight and household id columns (spec README Sec 3).
 */
export function ignoredColumns(roles: RoleTable): string[] {
  return [...roles].filter(([, r]) => r === 'ignored' || r === 'direct_identifier').map(([name]) => name);
}

/**
 * The choices that give back `config` (a link's or a settings file's, issue 13 Deliver 3): the
 * inverse of `auditConfig` for the page's columns. A column the settings name that the file
 * lacks is listed in `missing`; a setting the form does not hold stays in the config, which the
 * page keeps under the form's (`{...config, ...auditConfig(choices)}`).
 */
export function choicesFromConfig(
  config: AuditConfig,
  columns: readonly ColumnProfile[],
  encoding: Encoding | null,
): { choices: AuditChoices; missing: string[] } {
  const d = defaultChoices(new Map(), encoding);
  const has = (list: string[] | undefined, name: string) => (list ?? []).includes(name);
  const roles: RoleTable = new Map(
    columns.map((c): [string, ColumnRole] => {
      const role: ColumnRole = has(config.quasi_identifiers, c.name)
        ? 'quasi_identifier'
        : has(config.sensitive, c.name)
          ? 'sensitive'
          : config.person_id === c.name
            ? 'person_id'
            : config.weight === c.name
              ? 'weight'
              : config.household_column === c.name
                ? 'household_id'
                : has(config.ignored, c.name)
                  ? c.proposed_role === 'direct_identifier'
                    ? 'direct_identifier'
                    : 'ignored'
                  : 'insensitive';
      return [c.name, role];
    }),
  );
  const named = [
    ...config.quasi_identifiers,
    ...(config.sensitive ?? []),
    config.person_id,
    config.weight,
    config.household_column,
    config.record_id,
    ...(config.ignored ?? []),
  ];
  const known = new Set(columns.map((c) => c.name));
  const missing = [...new Set(named.filter((n): n is string => typeof n === 'string' && !known.has(n)))];
  const population: PopulationSize =
    typeof config.population_size === 'number'
      ? { kind: 'size', size: config.population_size }
      : typeof config.sampling_fraction === 'number'
        ? { kind: 'fraction', fraction: config.sampling_fraction }
        : typeof config.population_region === 'string'
          ? { kind: 'region', region: config.population_region }
          : { kind: 'none' };
  const choices: AuditChoices = {
    ...d,
    roles,
    missingPolicy: config.missing_policy ?? d.missingPolicy,
    threshold: config.threshold ?? d.threshold,
    recordsAtRiskThreshold: config.records_at_risk_threshold ?? d.recordsAtRiskThreshold,
    successRateThreshold: config.success_rate_threshold ?? d.successRateThreshold,
    ciLevel: config.ci_level ?? d.ciLevel,
    adviceK: config.advice?.suppress_below ?? d.adviceK,
    suda: config.suda ?? d.suda,
    caseInsensitive: config.case_insensitive ?? d.caseInsensitive,
    population,
    lThreshold: config.l_threshold ?? d.lThreshold,
    tThreshold: config.t_threshold ?? d.tThreshold,
    betaThreshold: config.beta_threshold ?? null,
    scorrKMin: config.scorr_k_min ?? d.scorrKMin,
    scorrTMax: config.scorr_t_max ?? d.scorrTMax,
    scorrKBasis: config.scorr_k_basis ?? d.scorrKBasis,
    tDistance: config.t_distance ?? d.tDistance,
    tReference: config.t_reference ?? d.tReference,
    saMode: config.sa_mode ?? d.saMode,
    ...declaredOf(config),
    riskCombination: config.risk_combination ?? d.riskCombination,
    riskWeightInternal: config.risk_weight_internal ?? d.riskWeightInternal,
    rutAlpha: config.rut_alpha ?? d.rutAlpha,
    kMap: config.k_map ?? d.kMap,
    kMapAlpha: config.k_map_alpha ?? d.kMapAlpha,
    kMapEstimator: config.k_map_estimator ?? d.kMapEstimator,
    deltaMin: config.delta_min ?? null,
    deltaMax: config.delta_max ?? null,
    researchSubsetColumn: config.research_subset_column ?? null,
    hipaa: config.hipaa ?? d.hipaa,
    perRecord: config.per_record ?? d.perRecord,
    rowOrderThreshold: config.row_order_threshold ?? d.rowOrderThreshold,
    referenceColumns: { ...(config.reference_columns ?? {}) },
    recordId: config.record_id ?? null,
    queries: (config.queries ?? []).map((q) => ({ ...q, group_by: [...q.group_by] })),
    attacks: config.attacks ? { ...defaultAttacks(), ...config.attacks } : null,
    synthetic: !!config.synthetic,
    encoding: config.encoding === 'windows-1252' ? 'windows-1252' : encoding,
  };
  return { choices, missing };
}

/** The configuration of the first pass over a new file: profile only. */
export function profileConfig(): AuditConfig {
  return { quasi_identifiers: [] };
}

/** Names that usually mark a record id (compared in lower case, without separators). */
const RECORD_ID_NAME =
  /^(?:(?:record|rec|row|case|person|patient|respondent|subject|unit|obs|observation)?(?:id|ident|identifier|key|number|no|nr)|rid|pid|uid|recno|seqn|serialno)$/;

/**
 * The column most likely to pair the original's rows with the released ones: one whose name
 * looks like a record id, else a direct identifier with an id-like name or numeric values;
 * null = pair by row order.
 */
export function guessRecordId(columns: readonly ColumnProfile[]): string | null {
  const plain = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const byName = columns.find((c) => RECORD_ID_NAME.test(plain(c.name)));
  if (byName) return byName.name;
  const direct = columns.filter((c) => c.proposed_role === 'direct_identifier');
  return (direct.find((c) => /id$/.test(plain(c.name))) ?? direct.find((c) => c.kind === 'numeric'))?.name ?? null;
}
