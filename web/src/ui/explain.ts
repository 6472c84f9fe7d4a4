// One plain sentence per metric, written for a hospital data steward: what the number means
// for the patients in the table, not how it is computed (see docs/spec identity-risk.md).

const EXPLANATIONS: Readonly<Record<string, string>> = {
  n_records_total: 'All data rows in the file, before any row is set aside.',
  n_records: 'Rows actually audited: all rows minus fully suppressed rows and rows dropped for blank quasi-identifiers.',
  n_suppressed_records: 'Rows whose quasi-identifiers are all suppressed (such as "*****"); they reveal nothing and are left out by default.',
  n_dropped_records: 'Rows left out because a quasi-identifier was blank and the missing-value policy is "drop".',
  n_classes: 'How many different combinations of quasi-identifier values occur; each combination forms one group of look-alike records.',
  k_anonymity:
    'Every patient shares their combination of quasi-identifier values with at least k\u00a0−\u00a01 others; k\u00a0=\u00a01 means at least one patient is unique.',
  class_size_histogram: 'How many records sit in groups of each size; records in groups of 1 or 2 are the easiest to single out.',
  ec_size_percentiles: 'Group sizes seen by a typical record: 5% of records are in groups no larger than P5, half in groups no larger than P50.',
  max_class_size: 'The largest group of records sharing the same quasi-identifier values.',
  k_violators: 'How many records are in groups smaller than each threshold k, and therefore would break k-anonymity at that k.',
  sample_uniques: 'Records whose combination of quasi-identifier values appears only once in the table, so anyone who knows those values can find the patient.',
  sample_uniqueness: 'The share of records that are unique in the table on their quasi-identifiers.',
  rare_combination_rate: 'The share of records whose combination is shared by at most 3 records in total.',
  record_risk: 'Each record’s chance of being picked out by someone who knows the patient is in the table: 1 divided by the size of its group.',
  r_internal: 'The average re-identification risk over all records: the expected share of patients an attacker could correctly re-identify.',
  avg_risk_class_mean: 'The average risk per group rather than per record; it is not the average risk of a patient.',
  prosecutor_lowest_risk: 'The risk of the best-protected records: 1 divided by the size of the largest group.',
  prosecutor_success_rate: 'The share of records an attacker who knows everyone is in the table could re-identify on average (equal to R_internal).',
  prosecutor_highest_risk: 'The risk of the most exposed records: 1 divided by k; 1.0000 means some patient can be identified with certainty.',
  prosecutor_records_at_risk: 'The share of records whose individual risk is above the threshold τ you chose.',
  prosecutor_records_affected_by_highest_risk: 'The share of records that carry the highest risk, those in the smallest groups.',
  prosecutor_records_affected_by_lowest_risk: 'The share of records that carry the lowest risk, those in the largest groups.',
  risk_distribution: 'How the records spread over risk levels; bars further right mean records that are easier to re-identify.',
  journalist_records_at_risk: 'The share of records whose risk is above τ when each record is compared with everyone in the population table.',
  journalist_highest_risk: 'The risk of the most exposed records: 1 divided by the smallest number of look-alike people in the population table.',
  journalist_lowest_risk: 'The risk of the best-protected records: 1 divided by the largest number of look-alike people in the population table.',
  journalist_success_rate: 'The share of released records an attacker could re-identify on average when targeting people from the population table.',
  marketer_success_rate: 'The expected share of records an attacker would re-identify correctly by matching the whole file against the population.',
  population_uniqueness_dankar: 'The estimated share of the whole population that is unique on these quasi-identifiers; the model is chosen by Dankar’s rule.',
  population_uniqueness_zayatz: 'The Zayatz estimate of the share of the population that is unique on these quasi-identifiers.',
  population_uniqueness_pitman: 'The Pitman estimate of the share of the population that is unique on these quasi-identifiers.',
  population_uniqueness_snb: 'The SNB (negative binomial) estimate of the share of the population that is unique.',
  confidence_interval:
    'The range is where the estimate would likely fall for another file drawn the same way from the same population (bootstrap over the file’s classes); it does not cover an error in the model itself.',
  population_uniqueness_curve: 'How the estimated share of population uniques changes with the share of the population that the file covers.',
  sdc_individual_risk: 'Each record’s re-identification risk taking the sampling weights into account (sdcMicro): the file is a sample of a larger population.',
  global_risk_er: 'The number of records an attacker can expect to re-identify correctly, summed over the whole file.',
  global_risk: 'The expected re-identifications as a share of all audited records.',
  risky_observations: 'Records whose weighted risk stands out clearly from the rest (far above the median and above 0.1).',
  r_internal_weighted: 'The average re-identification risk of the records, weighted by their sampling weights.',
  household_risk_er:
    'The number of records expected to be re-identified when finding one member of a household reveals the others: each record carries the chance that someone in its household is re-identified.',
  household_risk: 'The household risk as a share of all audited records (sdcMicro): 1 would mean every household has a member certain to be re-identified.',
  k_marginal: 'NIST’s k-marginal score of the release against the original, from 0 to 1,000: 1,000 when every two-column distribution is the same.',
  unique_exact_matches:
    'The percentage of the original’s unique records that the release holds unchanged (every column): 0 is what a synthetic release should show.',
  apparent_match:
    'The percentage of original records unique on the quasi-identifiers in both tables with the same values: records an attacker would take for the same person.',
  pmse: 'How well a classification tree tells released records from original ones (propensity mean-squared error): 0 when it cannot.',
  correlation_difference:
    'The mean absolute change of the Pearson correlation between pairs of columns, from the original to the release: 0 when every correlation is kept.',
  pca_comparison: 'How alike the release spreads along the original’s principal axes: 1 when alike on every axis.',
  linear_regression: 'The change of the regression line’s slope from the original to the release.',
  dcr_baseline_protection:
    'The median distance of released records to their closest original record, against that of random records: 1 when the release is as far from real people as random data.',
  dcr_overfitting_protection: 'Whether released records sit closer to the original records than to the holdout’s: 1 when no closer, 0 when every one is.',
  disclosure_protection:
    'SDMetrics’ CAP: how well an attacker who knows the quasi-identifiers guesses a sensitive value from the release, against a blind guess; 1 when no better.',
  scorr_uniqueness_risk: 'How unique a record’s combination is on a log scale: 1 for a unique record, 0 when all records look alike.',
  scorr_uniformity_risk_qi: 'The share of a record’s look-alikes that belong to the same person; 1 means every look-alike is that person.',
  scorr_uniformity_risk_attr: 'The same uniformity risk on one quasi-identifier alone: how strongly a single value points to one person.',
  k_anonymity_person: 'k counted in persons rather than rows: every person shares their combination with at least k\u00a0−\u00a01 other persons.',
  suda_score:
    'SUDA score: for each record, its minimal sample uniques (the smallest sets of its values no other record shares) weighted so that smaller sets count far more; 0 = the record has none. The weights grow combinatorially with the number of quasi-identifiers (the SUDA section gives them): compare scores only between audits of the same quasi-identifiers.',
  suda_msu_records: 'Records that have at least one minimal sample unique: a set of their values that singles them out.',
  suda_msu_share: 'The share of records that have at least one minimal sample unique.',
  suda_dis_score:
    'DIS-SUDA: the estimated chance that a record unique in the file is also unique in the population and so matched correctly (assumes the file is a 1 % sample unless set otherwise).',
  qi_distinction: 'The share of records that a combination of columns tells apart: distinct values divided by records.',
  qi_separation: 'The share of pairs of records that differ on this combination of columns.',
  qi_contribution: 'How much the average risk drops when this column is left out; the share says how much of the risk it drives.',
  qi_singling_out: 'The smallest combinations of columns on which some record is already unique, with how many records they single out.',
  verdict_arx_thresholds:
    'Whether the prosecutor, journalist and marketer risks stay within the ARX thresholds (a check passes when its value is at most the threshold).',
  anonymeter_singling_out_risk:
    'Singling out (Anonymeter): rules built from the release that fit exactly one original person, beyond what they achieve on the control table; with its 95 % interval.',
  anonymeter_linkability_risk:
    'Linkability (Anonymeter): people whose two halves of columns are joined through the same released record, beyond the control table; with its 95 % interval.',
  anonymeter_inference_risk:
    'Inference (Anonymeter): sensitive values guessed right from the closest released record, beyond the control table; with its 95 % interval.',
  advice:
    'What would lower the risk: single changes to the quasi-identifiers (drop one, coarsen one a step, suppress the records of small classes) with k, uniques, records at risk and the verdict after each, and what each costs.',
  // Attribute disclosure (spec attribute-risk.md): what can be learnt about a patient's
  // sensitive value without singling out their record.
  l_distinct:
    'The fewest different sensitive values in any class; 1 means everyone in some class shares the same value, so being known to be in it reveals the value.',
  l_distinct_max: 'The highest l this table could reach: the smaller of k and the number of different sensitive values.',
  l_entropy: 'The effective number of equally common sensitive values in the least varied class; it is below the distinct count when one value dominates.',
  l_entropy_floor: 'The largest whole number l for which entropy l-diversity holds.',
  recursive_cl_c:
    'Recursive (c,l)-diversity holds for every c above this value: in each class the most common value is less than c times as frequent as the values from the l-th on together.',
  recursive_cl_l: 'The largest l for which recursive (c,l)-diversity holds with the given c.',
  t_closeness:
    'How far the sensitive values of the worst class are spread from those of the whole file (0 = the same, 1 = completely different); text columns use the equal distance, numeric columns the ordered distance.',
  t_closeness_equal: 't-closeness with the equal distance: any two different values count as equally far apart.',
  t_closeness_ordered:
    't-closeness with the ordered distance: values are ranked (numbers by value, an ordinal column in its declared order), so neighbouring values count as close.',
  t_closeness_hierarchical:
    't-closeness with the hierarchical distance: two values are as far apart as the level where the declared hierarchy first joins them (values of one category are close).',
  beta_likeness_basic:
    'How much more common a sensitive value can become in one class than in the whole file, as a relative increase: 1 means twice as common.',
  beta_likeness_enhanced:
    'β with the ARX limit that a value may gain at most −ln of its share in the file; it cannot be satisfied when some class breaks that limit for every β.',
  delta_disclosure:
    'The largest change, on a natural-log scale, between a value’s share in a class and its share in the whole file; 0 means no class tells anything new.',
  delta_disclosure_log2: 'The same δ measured with log base 2, as the ARX tool reports it.',
  alpha_k_anonymity: 'α is the largest share a single sensitive value reaches in one class (1 = everyone in that class shares it), shown with k.',
  scorr_correlation_risk_qi: 'SCORR correlation risk: the share of a record’s look-alikes on all quasi-identifiers that also share its sensitive value.',
  scorr_correlation_risk_attr: 'The correlation risk on one quasi-identifier alone: how strongly one known value points to the sensitive value.',
  scorr_markov_risk: 'The SCORR Markov-model risk, combining uniqueness, uniformity and correlation; shown for information, it does not enter the verdict.',
  verdict_scorr_conventional:
    'The SCORR conventional check: compliant when k is above the chosen minimum and t-closeness is at most the chosen maximum for every sensitive column.',
  verdict_scorr_extended:
    'The SCORR extended check: each risk, rounded to 2 decimals, is low up to 0.33, medium up to 0.66 and high above; the worst band gives the category.',
  verdict_scorr_final:
    'The SCORR decision: eligible when compliant and every band is low, release with acknowledged risk when compliant with a medium band, otherwise not approved.',
  // Balance of risk and utility ([RUT], spec balance.md).
  r_external:
    'The average chance of linking a released record to the right person of the reference table: 1 divided by the number of its look-alikes there (0 when it has none).',
  r_external_match_rate: 'The share of released records that have at least one look-alike in the reference table.',
  r_unique: 'The same linkage chance counted only for records unique in the release, the ones an attacker would try first (over all records).',
  r_external_probability:
    'A rough diagnostic: the chance that a released and a reference record agree on every quasi-identifier by coincidence; it grows for common values, so it is not a risk ranking and never enters R.',
  r_external_correlation:
    'A diagnostic: how alike the value frequencies of each quasi-identifier are in the release and the reference table (Pearson correlation, averaged, negatives as 0); it nears 1 whenever the two distributions are similar, so it never enters R.',
  risk_r: 'The overall re-identification risk R, from 0 (none) to 1, combining the risk inside the file and the linkage risk with the reference table.',
  safety: 'One minus the overall risk R: 1 = nobody can be re-identified.',
  rut: 'The balance score: the weight α times the utility U plus the weight β = 1 − α times the safety 1 − R; from 0 to 1, higher is a better balance.',
  rut_f1: 'The linear trade-off α × U − β × R: like the RUT score, but it subtracts the risk, so it ranges from −β to α.',
  rut_ratio: 'Utility divided by risk; it has no upper bound, so it is shown for information and never used to rank releases.',
  rut_alpha_sweep: 'The RUT score of each candidate as the weight of utility α moves from 0.2 to 0.8, with the best candidate at each weight.',
  rut_constrained_choice: 'The candidate with the highest RUT score at the chosen weights among those within the risk and utility limits.',
  // Utility, permutation model (spec utility.md Sec 11): the released file against the original.
  perm_um:
    'How much of the way the columns vary together in the original the release kept, comparing the two tables as wholes (records are not paired): 1 = all of it, 0 = none, so analyses across columns would mislead.',
  perm_cm1:
    'How little the released values, ranked, give away about the original ones through their strongest link: 1 = nothing, 0 = one combination of columns keeps the original order exactly.',
  perm_cm2: 'Like CM1, but over every link between the two tables at once, so it is never above CM1: 1 = the release tells nothing about the original order.',
  perm_cm3:
    'The protection left against someone without record ids who sorts both tables by one column and matches them row by row; the weakest column decides it, and 0 means the records line up again.',
  perm_reverse_mapping:
    'How far each released value moved in rank from its original record’s value: a rank shift of 0 means the record kept its place among all records.',
  // Utility, loss and similarity ([RUT], spec utility.md Sec 2-7): per column and in total.
  utility_u:
    'How useful the release is overall, from 0 to 1: half how similar its columns’ distributions stay to the original’s, half how little detail was lost; 1 = the original itself.',
  l_total:
    'The detail lost record by record, averaged over the compared columns: 0 = every released value as precise as its own original; 1 = the released values say no more about their own records than a blank or the column’s average would (the columns’ distributions may still be kept: see the similarity).',
  s_total:
    'How similar the released columns’ distributions are to the original ones, from 0 (nothing in common) to 1 (the same): the average over the columns.',
  utility_ratio: 'Similarity divided by loss; it has no upper bound, so it must not be used to rank releases.',
  attribute_loss:
    'The detail this column lost record by record, from 0 (every value as precise as its own original) to 1 (no closer to it than a blank or the column’s average), from the loss measures chosen for its kind.',
  attribute_similarity: 'How close this column’s released distribution is to the original one, from 0 (nothing in common) to 1 (the same).',
  gen_loss: 'How much each released value was widened: a range of 10 ages in place of one age loses 0.9, a blanked value loses 1; the average over the cells.',
  gen_loss_ncp: 'The widening measured against the whole range of the column: 1 = every value widened to the full range.',
  proximity_loss: 'How far the released numbers lie from their original ones, compared with replacing every value by the column’s mean (which counts as 1).',
  proximity_loss_record_l1: 'The proximity loss per record averaged over its numeric columns, then over the records.',
  proximity_loss_record_l2: 'Like the per-record proximity loss, with larger distances weighing more (root mean square).',
  distance_manhattan: 'The sum over the records of how far each released number lies from its original one.',
  distance_euclidean: 'The distance between the released and the original numbers taken as one vector (square root of the summed squares).',
  mad: 'How far a released number lies from its original one on average, in the column’s own unit.',
  rmse: 'The root-mean-square distance between the released and the original numbers, in the column’s own unit; large errors weigh more.',
  entropy_original: 'How varied the original column is, in bits: 0 when every row holds the same value.',
  entropy_released: 'How varied the released column is, in bits.',
  entropy_difference: 'The bits of variety the release lost (negative when it looks more varied than the original).',
  entropy_loss: 'The share of the original column’s variety that the release lost: 0 = none, 1 = every row looks the same.',
  consistency_loss:
    'The share of records whose original value was not turned into its most common released value: 0 when every value was recoded the same way everywhere.',
  cosine_similarity:
    'How alike the shapes of the original and released distributions are, from 0 to 1; ranges are read as spreading their rows evenly over the values they cover.',
  jaccard_similarity: 'The overlap of the original and released distributions, from 0 (no share in common) to 1 (the same shares).',
  jaccard_set: 'The share of distinct values the two columns have in common; 0 for any recoded column.',
  // Utility, statistical disclosure control measures ([SDCG], spec utility.md Sec 8).
  missing_count: 'Blank cells in the original and in the release; the increase is what the release blanked out.',
  cell_transitions: 'How the cells of paired records changed: kept, changed, blanked out, filled in, or blank in both.',
  suppressed_cells: 'Cells that had a value in the original and are blank in the release (suppressed).',
  changed_records:
    'Records whose value in this column differs between the original and the release (changed, blanked out or filled in); after swapping or noise this overstates the loss.',
  ctbil: 'The total difference in the counts of the tables cross-counting the quasi-identifiers one and two at a time.',
  ctbil_normalized:
    'The average difference per cell of the tables cross-counting the quasi-identifiers one and two at a time; 0 means analyses counting these combinations give the same numbers.',
  tv_distance: 'Per cross-count table, the share of rows that would have to move to turn the original counts into the released ones.',
  mean_diff: 'The mean of the column in the original and in the release, and how much it moved.',
  variance_diff: 'The spread (variance) of the column in the original and in the release, and how much it changed.',
  cov_discrepancy: 'How much the covariances between the numeric columns changed, on average over the pairs.',
  cor_discrepancy:
    'How much the correlations between the numeric columns changed, on average over the pairs of columns; 0 = analyses of how columns move together give the same answers.',
  il1s: 'How far the released numbers lie from their original ones, in units of the column’s spread (standard deviation times √2), averaged over records and columns; 0 = unchanged.',
  il1s_sdcmicro_sum: 'IL1s as recent sdcMicro versions print it: the sum over cells instead of the average.',
  il1_relpct_sum: 'The relative distances in percent, summed over the cells, as sdcMicro’s IL1 reports it.',
  eigen_diff:
    'How much the structure of the correlations between the numeric columns changed (relative change of the correlation matrix’s eigenvalues); 0 = the same structure.',
  // Peers' measures (spec peer-measures.md Sec 3, 4; issue 16).
  k_map:
    'The smallest number of people in the population table who share a released record’s quasi-identifier values: every released patient hides among at least this many people of the population (ARX’s k-map).',
  k_map_estimated:
    'Without a population table: the group size the file itself must reach so that, by ARX’s estimate from the population size, each patient hides among at least k people of the population.',
  delta_presence:
    'For each combination of quasi-identifier values in the population table, the share of those people who are in the release: a share near 1 tells whoever knows someone’s values that the person is in the file (ARX’s δ-presence).',
  hipaa_safe_harbor:
    'How many of the 18 kinds of identifiers that HIPAA’s Safe Harbor method lists were found in the released file’s values or column names: a checklist, not a statement of compliance.',
  row_order_correlation:
    'How closely the released rows follow the original’s order (rank correlation of each record’s positions, from −1 to 1): near 1 or −1, someone who knows the original order can match records by their position alone.',
  // Utility, query accuracy ([HCT], spec utility.md Sec 10).
  query_relative_error:
    'How far a query’s released answer lies from the original one, in percent of the original, averaged over the query’s groups: below 5% is good, above 15% poor.',
  query_accuracy_summary:
    'Over all test queries (counts per quasi-identifier and per pair of them), how far the released answers lie from the original ones on average, with the number of good, moderate and poor queries.',
};

/** Plain words for the `reason` codes of metrics that could not be computed. */
const REASONS: Readonly<Record<string, string>> = {
  population_size_missing: 'no population size was given',
  population_smaller_than_sample: 'the population is smaller than the file',
  population_missing_qi: 'the population table lacks some of the quasi-identifiers',
  research_subset_column_missing: 'the population table has no column of the name given for the released rows',
  invalid_subset_flag: 'the column marking the released rows holds a value other than 1, true, yes, 0, false or no',
  solver_invalid: 'the model’s equations have no valid solution for this table',
  no_weight_column: 'no sampling-weight column was chosen',
  invalid_weight: 'the weight column holds a value that is not a number of at least 0',
  person_level_data: 'no person id column was chosen, so each row is one person',
  no_records_in_scope: 'no record is left to audit',
  no_convergence: 'the solver did not converge',
  outside_model: 'the solution lies outside the range where the model is defined',
  outside_population: 'the estimate lies outside the population',
  initial_guess_undefined: 'the solver could not start on this table',
  degenerate_count: 'the estimate is zero or not finite',
  zayatz_invalid: 'the Zayatz estimate it relies on is invalid',
  sample_not_within_population: 'the file is larger than the population',
  attacker_model_missing: 'an attacker model it checks could not be computed (see the attacker models)',
  no_sensitive_attribute: 'no column was marked sensitive',
  no_population_table: 'no population table was given, so the journalist figures equal the prosecutor’s',
  no_external_table: 'no population / reference table was given',
  no_common_quasi_identifiers: 'the reference table holds none of the quasi-identifiers',
  empty_external_table: 'the reference table has no rows left',
  no_utility: 'no original table was given, so the utility U is not known',
  no_feasible_release: 'no candidate is within the risk and utility limits',
  no_candidates: 'no candidate could be compared',
  no_quasi_identifiers: 'no column is a quasi-identifier, so no risk was measured: the candidates are compared on utility alone',
  risk_without_external: 'without a reference table the overall risk R is the risk inside the file (R_internal) alone',
  l_exceeds_distinct: 'some class holds fewer different sensitive values than l, so no c satisfies it',
  sa_not_ordered: 'the sensitive column is neither numeric nor declared ordinal, so its values have no order',
  hierarchy_incomplete: 'some values of the sensitive column are not leaves of its hierarchy',
  ordinal_label_unknown: 'some values of the ordinal column are not in its declared order',
  original_lacks_sensitive: 'the original table has no such column, so the file’s own distribution was the reference',
  unsatisfiable: 'it cannot be satisfied: in some class a value gains more than −ln of its share in the file',
  k_unavailable: 'the k it needs could not be computed (k in persons needs a person id column)',
  no_k: 'k could not be computed',
  wildcard_policy: 'it is not defined when blank cells are wildcards',
  row_count_mismatch: 'the two tables have different numbers of rows, so their rows cannot be paired by row order',
  record_id_missing: 'some rows have no record id, so they cannot be paired',
  record_id_not_unique: 'a record id occurs more than once in one of the tables, so rows cannot be paired',
  record_id_unknown_in_released: 'the released file holds record ids that are not in the original table',
  no_attributes: 'the two tables share no numeric column',
  single_attribute: 'it needs at least two numeric columns in both tables',
  too_few_rows: 'fewer than 3 complete rows are left',
  no_variance_original: 'the original columns do not vary',
  rank_deficient: 'some columns are constant or repeat others, so some of their correlations count as 0',
  no_original: 'no original table was given',
  attribute_dropped: 'the column is not in the released file',
  no_pairs: 'no pair of records has a value in both tables',
  near_singular: 'some numeric columns are (almost) combinations of others, so the eigenvalues are not reliable',
  zero_variance: 'a column does not vary',
  no_numeric_attributes: 'no numeric column is compared',
  midpoint_used: 'ranges were read as their midpoints',
  gr_unknown: 'a recoded value could not be traced to the original values it stands for',
  empty_interval: 'a released range covers no value',
  attribute_excluded_from_totals: 'a column with no usable loss or similarity measure was left out of the totals',
  no_queries: 'no query could be evaluated',
  not_comparable: 'a recoded column could not be mapped to its original values',
  division_by_zero: 'it divides by zero',
  forward_map_partial: 'some original values could not be mapped to one released value, so they keep their own label',
  columns_excluded: 'columns that do not vary, or have fewer than 2 values, were left out',
  too_few_attributes: 'it needs at least two numeric columns that vary',
  too_few_values: 'too few values to compute it',
  no_cells: 'no cell could be compared',
  no_counted_cells: 'no cell could be counted',
  no_counted_rows: 'no row could be counted',
  no_domain: 'the column has no numeric value in the original, so its range is unknown',
  no_evaluated_queries: 'no query could be evaluated',
  no_hierarchy: 'no generalization hierarchy was declared for the column',
  no_rows: 'no row is left',
  no_values: 'the column has no value to compare',
  no_variables: 'no column to cross-count',
  no_usable_attribute: 'no column had a usable loss or similarity measure',
  no_usable_component: 'none of the column’s measures could be computed',
  not_numeric: 'the column is not numeric',
  column_not_numeric: 'the column is not numeric',
  zero_vector: 'one of the two distributions is empty',
  invalid_similarity_weight: 'the similarity weight must be between 0 and 1',
  lmax_undefined: 'the scale of the proximity loss could not be set',
  original_not_exact: 'some original values are not plain numbers and were skipped',
  invalid_cells_skipped: 'cells that are not valid numbers were skipped',
  quasi_identifiers_all_blank: 'every quasi-identifier is blank in every record, so there is nothing to judge the risk by',
  sa_generalized_treated_as_categorical: 'a numeric sensitive column holds ranges or masked values, so its values were compared as text (equal distance)',
  policy_not_supported: 'it is not defined when blank cells are wildcards (the groups overlap)',
  row_order_pairing: 'the rows were paired by their order, so their order cannot be compared; pair them by a record id column',
  too_few_pairs: 'fewer than 2 records could be paired',
  invalid_parameter: 'a setting is out of range',
  empty_input: 'the original or the released table has no record',
  column_missing: 'a column it needs is not in both tables',
  holdout_columns_differ: 'the holdout table lacks a column the release has',
  baseline_zero: 'every sensitive column has one value in the original, so a blind guess is always right',
  constant_columns: 'every pair of columns has a column that does not vary',
  fewer_than_two_columns: 'it needs at least two compared columns',
  no_columns: 'no column is compared',
  no_compared_columns: 'no column is compared',
  no_holdout: 'no holdout table was given',
  no_known_columns: 'no quasi-identifier to know',
  no_sensitive_columns: 'no sensitive column to guess',
  no_line: 'a line needs at least 2 records with 2 different x values in each table',
  no_marginal_columns: 'every column is the group or left out',
  no_original_table: 'it needs the original table',
  no_row_scored: 'no original record’s quasi-identifiers occur in the release',
  not_configured: 'its columns were not chosen',
  random_median_zero: 'the random records lie on the original ones, so the ratio is undefined',
};

/** A reason code in words (the code itself when unknown). */
export function reasonText(code: string | null | undefined): string {
  if (!code) return 'no reason given';
  return REASONS[code] ?? code.replace(/_/g, ' ');
}

/** What each attacker model assumes, in one sentence. */
export const ATTACKER_HELP: Readonly<Record<'prosecutor' | 'journalist' | 'marketer', string>> = {
  prosecutor: 'The attacker knows the person is in the file and looks for their record.',
  journalist: 'The attacker knows the person is in the population table but not whether they are in the file.',
  marketer: 'The attacker tries to re-identify as many people as possible, not one person in particular.',
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

export const CASE_INSENSITIVE_HELP =
  'Treat "Male", "male" and "MALE" as one value, in this file, the original and the population table and in the hierarchies. The missing-value tokens (NA, NULL, ...) are matched first, as written.';

export const SUDA_HELP =
  'SUDA looks, for every record, for the smallest sets of its values that no other record shares (its special uniques) and scores the record by how many such sets it has and how small they are. Off by default: on many quasi-identifiers it takes longer than the rest of the audit.';

export const THRESHOLD_HELP = 'A record counts as "at risk" when its re-identification risk is above τ; 0.2 means more than 1 chance in 5.';

export const RECORDS_AT_RISK_HELP = 'The verdict fails when a larger share of records than this is at risk (0.05 = 5% of the records).';

export const SUCCESS_RATE_HELP = 'The verdict fails when an attacker would on average re-identify a larger share of records than this.';

export const REFERENCE_HELP =
  'Optional: a CSV of the population the file was drawn from (such as a census extract) with the same quasi-identifier columns; it stays on this computer.';

export const ORIGINAL_HELP =
  'Optional: the table as it was before pseudonymization, with the same columns, to measure what the release kept (utility) and how hard its records are to link back; it stays on this computer. Columns marked "Ignored" or "Direct identifier" are left out.';

export const ATTACKS_HELP =
  "For synthetic or noisy releases: the page plays three attackers against the original records, as Anonymeter does. Can a rule built from the release pick out exactly one original person (singling out)? Can two halves of a person's columns be joined through the release (linkability)? Does the closest released record give away a sensitive value (inference)? Each attack is repeated the number of times below and compared with a random guess.";

export const SYNTHETIC_HELP =
  'For a synthetic or noise-added release: how closely it keeps the original’s columns and their relations (NIST’s SDNist report), and how close its records come to real people (SDMetrics’ distance to the closest record and CAP). The quasi-identifiers are what an attacker knows; the sensitive columns what CAP guesses.';

export const HOLDOUT_HELP =
  'Optional but recommended: records of the same population that were NOT used to make the release, with the original’s columns (CSV). A release closer to the original than to these records learned the people, not the population. It is also the control table of the attacks.';

export const CONTROL_HELP =
  "Optional but recommended: other records of the same population that were NOT used to make the release, with the original's columns (CSV). Attacks that work as well on them measure what anyone could guess about such people, not a leak; the risk shown is what the release adds.";

export const RECORD_ID_HELP =
  'The column that names the same record in both tables; by row order, row 1 of the original goes with row 1 of the released file, so both need the same number of rows.';

export const POPULATION_SIZE_HELP: Readonly<Record<'none' | 'size' | 'fraction' | 'region', string>> = {
  none: 'Without a population size the population-uniqueness estimates are skipped.',
  size: 'How many people the file was drawn from, such as all residents of the region.',
  fraction: 'The share of the population that is in the file, such as 0.01 for a 1% sample.',
  region: 'Use the population of a region (the presets of the ARX tool).',
};

/** The attribute-disclosure and SCORR settings of step 2, one sentence each. */
export const ATTRIBUTE_SETTINGS_HELP = {
  intro: 'They apply to the columns marked "Sensitive": the results list the classes (groups of records with the same quasi-identifier values) that fail them.',
  l: 'A class fails when it holds fewer different sensitive values than l; with 1, everyone in it shares the same value.',
  t: 'A class fails when its sensitive values are spread further than t from the whole file (0 = the same spread, 1 = completely different).',
  beta: 'A class fails when some value is more than β times more common in it than in the whole file (1 = twice as common); leave empty to skip.',
  scorr: 'The rule of the SCORR method: compliant when k is above the first number and, for every sensitive column, t-closeness is at most the second.',
  kMin: 'The smallest class must be larger than this; SCORR uses 10.',
  tMax: 'Each sensitive column’s t-closeness must not exceed this; SCORR uses 0.5.',
  tDistance:
    'How far apart two sensitive values count: automatic uses the ordered distance for numeric and ordinal columns and the equal distance for text; hierarchical needs a hierarchy below.',
  tReference:
    'The distribution each class is compared with: the released file’s own (what a recipient can check), or the original file’s (needs an original table).',
  saMode:
    'With several sensitive columns: judge each on the quasi-identifiers, judge the combination of their values as one column, or judge each with the other sensitive columns added to the quasi-identifiers (an attacker who knows them).',
  orders:
    'A sensitive column whose values have an order (such as low, mid, high): one line per column, the column name, a colon, then its values from lowest to highest separated by commas. Every value must be listed.',
  hierarchy:
    'A generalization hierarchy for a sensitive column, in ARX’s layout (one row per value, then its categories up to the top, separated by “;”), for the hierarchical distance.',
} as const;

export const K_BASIS_HELP: Readonly<Record<'records' | 'persons', string>> = {
  records: 'Each row counts once, as in the SCORR paper.',
  persons: 'Each person counts once, for tables with several rows per person; give a column the role "Person id".',
};
