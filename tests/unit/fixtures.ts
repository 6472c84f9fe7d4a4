// Small reports for the unit tests: the fields a reader looks at, the rest empty or default.

import { CONFIG_DEFAULTS, type ColumnProfile, type InputFacts } from '../../web/src/shared/contract';
import type { MetricResult, Report } from '../../web/src/shared/report';

const facts: InputFacts = {
  format: 'csv',
  sheet: null,
  bytes: 0,
  lines: 0,
  records: 1,
  header_records: 1,
  rows_total: 0,
  blank_records: 0,
  error_records: 0,
  ragged_rows: 0,
  encoding: 'utf-8',
  delimiter: ',',
  columns: 0,
  sha256: null,
};

/** A result of the table as a whole (no attribute, subset or sensitive column). */
export function result(id: string, value: unknown, extra: Partial<MetricResult> = {}): MetricResult {
  return {
    id,
    family: 'identity',
    scope: { table: 'P', quasi_identifiers: ['age'], sensitive: null, attribute: null, subset: null },
    value,
    status: 'ok',
    reason: null,
    params: {},
    details: {},
    warnings: [],
    ...extra,
  };
}

export function report(metrics: MetricResult[], columns: ColumnProfile[] = []): Report {
  return {
    input: facts,
    original_input: null,
    reference_input: null,
    columns,
    params: {
      ...CONFIG_DEFAULTS,
      missing_tokens: [...CONFIG_DEFAULTS.missing_tokens],
      quasi_identifiers: ['age'],
      sensitive: [],
      ignored: [],
      utility_columns: [],
      ctbil_variables: [],
      permutation_columns: [],
      queries: [],
      attributes: {},
      reference_columns: {},
    },
    metrics,
    warnings: [],
    read: { mode: 'retained', reason: '' },
  };
}

/** A column profile as the core proposes it. */
export function column(name: string, proposed: ColumnProfile['proposed_role'], kind: ColumnProfile['kind'] = 'categorical'): ColumnProfile {
  return {
    name,
    index: 0,
    kind,
    forms: { exact: 1, range: 0, mask: 0, missing: 0, suppressed: 0, invalid: 0 },
    shape: 'text',
    distinct: 1,
    distinct_exact: true,
    min: null,
    max: null,
    top: [],
    proposed_role: proposed,
    role_reason: '',
    date_form: null,
    decimal_comma: false,
    ambiguous_date_forms: [],
    mixed_decimals: false,
  };
}
