// The settings of step 2 as the page reads them from its form: plain data, no DOM. The views
// that hold each part (attribute-settings.ts, original-settings.ts, balance-settings.ts,
// settings-form.ts) fill them in; roles.ts turns them and the roles into an AuditConfig.

import { DEFAULT_ALPHA, type Combination } from '../shared/balance-data';
import { CONFIG_DEFAULTS, type AttackParams } from '../shared/contract';
import type { KMapEstimator, SaMode, TDistance, TReference } from '../shared/contract';
import type { KBasis, MissingPolicy, UtilityQuery } from '../shared/report';

/** The attribute-disclosure thresholds and the SCORR verdict's rule. */
export interface AttributeSettings {
  lThreshold: number;
  tThreshold: number;
  /** null = the box was left empty: beta is not checked. */
  betaThreshold: number | null;
  scorrKMin: number;
  scorrTMax: number;
  scorrKBasis: KBasis;
  /** The distance of t-closeness (`t_distance`). */
  tDistance: TDistance;
  /** Where t-closeness's reference distribution comes from (`t_reference`). */
  tReference: TReference;
  /** How several sensitive columns are judged (`sa_mode`). */
  saMode: SaMode;
  /** Declared ordinal sensitive columns: column -> labels, lowest first. */
  orders: Record<string, string[]>;
  /** Declared hierarchies of sensitive columns: column -> rows in ARX's layout. */
  hierarchies: Record<string, string[][]>;
}

/** The original table, how its rows pair with the released ones, and the user's queries. */
export interface OriginalSettings {
  original: File | null;
  /** null = pair by row order. */
  recordId: string | null;
  /** The user's queries for query accuracy, added to the default workload. */
  queries: UtilityQuery[];
  /** The attacks on the release (peer-measures.md Sec 5), null = not run. */
  attacks: AttackParams | null;
  /** The attacks' control table and the synthetic measures' holdout (one table): records of
   * the population not used to make the release. */
  control: File | null;
  /** The measures of a synthetic or perturbed release (synthetic.md) run with the original. */
  synthetic: boolean;
}

/** How R combines R_internal and R_external, and the weight of utility of the RUT score. */
export interface BalanceSettings {
  riskCombination: Combination;
  riskWeightInternal: number;
  rutAlpha: number;
}

/** The core's defaults (contract.ts). */
export const DEFAULT_BALANCE: BalanceSettings = {
  riskCombination: CONFIG_DEFAULTS.risk_combination,
  riskWeightInternal: CONFIG_DEFAULTS.risk_weight_internal,
  rutAlpha: DEFAULT_ALPHA,
};

/** Why the balance settings cannot run, or null. */
export function validateBalance(s: BalanceSettings): string | null {
  const unit = (x: number) => Number.isFinite(x) && x >= 0 && x <= 1;
  if (!unit(s.riskWeightInternal)) return 'The weight w of R_internal must be a number from 0 to 1.';
  if (!unit(s.rutAlpha)) return 'The weight of utility α must be a number from 0 to 1.';
  return null;
}

/** How the population size N is given: never more than one way. */
export type PopulationSize = { kind: 'none' } | { kind: 'size'; size: number } | { kind: 'fraction'; fraction: number } | { kind: 'region'; region: string };

/** The peers' measures (issue 16): k-map, δ-presence, the HIPAA checklist, the row-order leak. */
export interface PeerSettings {
  kMap: number;
  kMapAlpha: number;
  kMapEstimator: KMapEstimator;
  /** null = the box was left empty: that bound is not checked. */
  deltaMin: number | null;
  deltaMax: number | null;
  /** The population table's column flagging the research subset (δ-presence's form (b));
   *  null = the released file is the subset. */
  researchSubsetColumn: string | null;
  hipaa: boolean;
  rowOrderThreshold: number;
  /** Each record's risk in the report (`per_record`, spec README Sec 10). */
  perRecord: boolean;
}

/** The core's defaults (contract.ts). */
export const DEFAULT_PEERS: PeerSettings = {
  kMap: CONFIG_DEFAULTS.k_map,
  kMapAlpha: CONFIG_DEFAULTS.k_map_alpha,
  kMapEstimator: CONFIG_DEFAULTS.k_map_estimator,
  deltaMin: null,
  deltaMax: null,
  researchSubsetColumn: null,
  hipaa: CONFIG_DEFAULTS.hipaa,
  rowOrderThreshold: CONFIG_DEFAULTS.row_order_threshold,
  perRecord: CONFIG_DEFAULTS.per_record,
};

/** Why the peers' settings cannot run, or null. */
export function validatePeers(s: PeerSettings): string | null {
  const unit = (x: number) => Number.isFinite(x) && x >= 0 && x <= 1;
  if (!(Number.isSafeInteger(s.kMap) && s.kMap >= 1)) return 'The k of k-map must be a whole number of at least 1.';
  if (!unit(s.kMapAlpha)) return 'The significance level of the estimated k-map must be a number from 0 to 1.';
  if ((s.deltaMin !== null && !unit(s.deltaMin)) || (s.deltaMax !== null && !unit(s.deltaMax)))
    return 'The δ-presence bounds must be numbers from 0 to 1, or left empty.';
  if (s.deltaMin !== null && s.deltaMax !== null && s.deltaMin > s.deltaMax) return 'The lower δ-presence bound must not exceed the upper one.';
  if (!unit(s.rowOrderThreshold)) return 'The row-order warning level must be a number from 0 to 1.';
  return null;
}

/** The settings as read from the form (numbers unchecked: `validate` checks them). */
export interface Settings extends AttributeSettings, OriginalSettings, BalanceSettings, PeerSettings {
  missingPolicy: MissingPolicy;
  threshold: number;
  recordsAtRiskThreshold: number;
  successRateThreshold: number;
  /** The level of the confidence intervals (`ci_level`). */
  ciLevel: number;
  /** The k of the advice's suppression. */
  adviceK: number;
  /** Whether SUDA (special uniques) runs. */
  suda: boolean;
  /** Whether values are compared case-insensitively (`case_insensitive`). */
  caseInsensitive: boolean;
  population: PopulationSize;
  reference: File | null;
  /** QI -> column of the population table, for QIs it names otherwise. */
  referenceColumns: Record<string, string>;
}
