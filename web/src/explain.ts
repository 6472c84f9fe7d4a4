// One plain sentence per metric, written for a hospital data steward: what the number means
// for the patients in the table, not how it is computed (see docs/spec identity-risk.md).

const EXPLANATIONS: Readonly<Record<string, string>> = {
  n_records_total: 'All data rows in the file, before any row is set aside.',
  n_records:
    'Rows actually audited: all rows minus fully suppressed rows and rows dropped for blank quasi-identifiers.',
  n_suppressed_records:
    'Rows whose quasi-identifiers are all suppressed (such as "*****"); they reveal nothing and are left out by default.',
  n_dropped_records:
    'Rows left out because a quasi-identifier was blank and the missing-value policy is "drop".',
  n_classes:
    'How many different combinations of quasi-identifier values occur; each combination forms one group of look-alike records.',
  k_anonymity:
    'Every patient shares their combination of quasi-identifier values with at least k\u00a0−\u00a01 others; k\u00a0=\u00a01 means at least one patient is unique.',
  class_size_histogram:
    'How many records sit in groups of each size; records in groups of 1 or 2 are the easiest to single out.',
  ec_size_percentiles:
    'Group sizes seen by a typical record: 5% of records are in groups no larger than P5, half in groups no larger than P50.',
  max_class_size: 'The largest group of records sharing the same quasi-identifier values.',
  k_violators:
    'How many records are in groups smaller than each threshold k, and therefore would break k-anonymity at that k.',
  sample_uniques:
    'Records whose combination of quasi-identifier values appears only once in the table, so anyone who knows those values can find the patient.',
  sample_uniqueness: 'The share of records that are unique in the table on their quasi-identifiers.',
  rare_combination_rate: 'The share of records whose combination is shared by at most 3 records in total.',
  record_risk:
    'Each record’s chance of being picked out by someone who knows the patient is in the table: 1 divided by the size of its group.',
  r_internal:
    'The average re-identification risk over all records: the expected share of patients an attacker could correctly re-identify.',
  avg_risk_class_mean:
    'The average risk per group rather than per record; it is not the average risk of a patient.',
  prosecutor_lowest_risk: 'The risk of the best-protected records: 1 divided by the size of the largest group.',
  prosecutor_success_rate:
    'The share of records an attacker who knows everyone is in the table could re-identify on average (equal to R_internal).',
  prosecutor_highest_risk:
    'The risk of the most exposed records: 1 divided by k; 1.0000 means some patient can be identified with certainty.',
  prosecutor_records_at_risk:
    'The share of records whose individual risk is above the threshold τ you chose.',
  prosecutor_records_affected_by_highest_risk:
    'The share of records that carry the highest risk, those in the smallest groups.',
  prosecutor_records_affected_by_lowest_risk:
    'The share of records that carry the lowest risk, those in the largest groups.',
  risk_distribution:
    'How the records spread over risk levels; bars further right mean records that are easier to re-identify.',
};

/** The sentence for a metric id, or a neutral fallback for ids this page does not know. */
export function explain(id: string): string {
  return EXPLANATIONS[id] ?? 'A metric reported by the audit; see the downloaded JSON report for details.';
}

/** What each missing-value policy does, in one line. */
export const MISSING_POLICY_HELP: Readonly<Record<'ordinary' | 'wildcard' | 'drop', string>> = {
  ordinary: 'A blank cell is one more value: blanks match other blanks only.',
  wildcard: 'A blank cell could hide any value, so it matches every value (the cautious choice).',
  drop: 'Rows with a blank quasi-identifier are left out of the audit.',
};

export const THRESHOLD_HELP =
  'A record counts as "at risk" when its re-identification risk is above τ; 0.2 means more than 1 chance in 5.';
