// The headline figure of each long result section: what its summary line shows while the
// section is folded, so that a reader sees the answer without opening it. Keyed by the id of
// the section's heading; a section not listed here is short and stays open. Read from the
// Report only.

import { adviceOf } from '../../shared/advice-data';
import { attacksOf } from '../../shared/attack-data';
import { DECISIONS, saMetric, saNumber, scorrVerdict, sensitiveColumns } from '../../shared/attribute-data';
import { overallRisk, rutResult } from '../../shared/balance-data';
import { count, percent, score, smallPercent } from '../../ui/format';
import { kViolators, metric, numberValue, riskiestClasses, type Report } from '../../shared/report';
import { contributions, minMeanMax } from '../../shared/suite';

const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** The worst l and t over the sensitive columns ("*" when there are several). */
function attributeHeadline(report: Report): string | null {
  const sas = sensitiveColumns(report);
  if (sas.length === 0 || metric(report, 'l_distinct')?.reason === 'no_sensitive_attribute') return 'No sensitive column chosen';
  const sa = sas.length > 1 ? '*' : sas[0]!;
  const l = saNumber(report, 'l_distinct', sa);
  const t = saNumber(report, 't_closeness', sa);
  const parts = [l === null ? null : `l ${count(l)}`, t === null ? null : `t ${score(t)}`].filter((p) => p !== null);
  if (parts.length === 0) return saMetric(report, 'l_distinct', sa) ? null : 'Not reported';
  return `Worst ${parts.join(', ')}${sas.length > 1 ? ' over all sensitive columns' : ` (${sa})`}`;
}

function utilityHeadline(report: Report): string | null {
  const u = numberValue(report, 'utility_u');
  const um = numberValue(report, 'perm_um');
  const parts = [u === null ? null : `U ${score(u)}`, um === null ? null : `UM ${score(um)}`].filter((p) => p !== null);
  return parts.length ? parts.join(', ') : null;
}

function balanceHeadline(report: Report): string | null {
  const r = overallRisk(report);
  const rut = rutResult(report);
  const parts = [r ? `R ${score(r.risk)}` : null, rut ? `RUT score ${score(rut.value)}` : null].filter((p) => p !== null);
  return parts.length ? parts.join(', ') : null;
}

function adviceHeadline(report: Report): string | null {
  const list = adviceOf(report);
  if (!list) return null;
  if (list.length === 0) return 'No single change found';
  const best = list[0]!.after;
  return `${plural(list.length, 'change', 'changes')}; the best leaves ${percent(best.records_at_risk)} of records at risk`;
}

function attacksHeadline(report: Report): string | null {
  const risks = attacksOf(report).filter((a) => a.risk !== null);
  if (risks.length === 0) return null;
  const top = risks.reduce((a, b) => (b.risk!.value > a.risk!.value ? b : a));
  return `Highest attack risk ${percent(top.risk!.value)} (${top.kind.replace('_', ' ')})`;
}

function attributionHeadline(report: Report): string | null {
  const top = contributions(report)
    .filter((c) => c.share !== null)
    .sort((a, b) => b.share! - a.share!)[0];
  return top ? `Largest share: ${top.attribute} (${percent(top.share)})` : null;
}

function scorrVerdictHeadline(report: Report): string | null {
  const final = scorrVerdict(report).final;
  return final ? DECISIONS[final] : null;
}

export const HEADLINES: Readonly<Record<string, (report: Report) => string | null>> = {
  'advice-title': adviceHeadline,
  'attackers-title': (r) => {
    const p = numberValue(r, 'prosecutor_highest_risk');
    return p === null ? null : `Highest risk ${score(p)} (prosecutor)`;
  },
  'kmap-title': (r) => {
    const k = numberValue(r, 'k_map');
    const est = numberValue(r, 'k_map_estimated');
    if (k !== null) return `k-map ${count(k)}`;
    return est === null ? null : `Groups need ${count(est)} records (estimated k-map)`;
  },
  'hipaa-title': (r) => {
    const n = numberValue(r, 'hipaa_safe_harbor');
    return n === null ? null : n === 0 ? 'No finding in the 18 kinds' : `Found: ${count(n)} of the 18 kinds`;
  },
  'attribute-title': attributeHeadline,
  'utility-title': utilityHeadline,
  'attacks-title': attacksHeadline,
  'synthetic-title': (r) => {
    const k = numberValue(r, 'k_marginal');
    const uem = numberValue(r, 'unique_exact_matches');
    const parts = [k === null ? null : `k-marginal ${Math.round(k)} of 1,000`, uem === null ? null : `${percent(uem / 100)} of unique records copied`].filter(
      (p) => p !== null,
    );
    return parts.length ? parts.join(', ') : null;
  },
  'balance-title': balanceHeadline,
  'population-title': (r) => {
    const d = metric(r, 'population_uniqueness_dankar');
    return d?.status === 'ok' && typeof d.value === 'number' ? `${smallPercent(d.value)} of the population unique` : 'Needs the population size';
  },
  'attribution-title': attributionHeadline,
  'suda-title': (r) => {
    const n = numberValue(r, 'suda_msu_records');
    const share = numberValue(r, 'suda_msu_share');
    return n === null || share === null ? null : `${count(n)} records (${percent(share)}) with a special unique`;
  },
  'scorr-title': (r) => {
    const u = minMeanMax(r, 'scorr_uniqueness_risk');
    return u ? `Highest uniqueness risk ${score(u.max)}` : null;
  },
  'scorr-verdict-title': scorrVerdictHeadline,
  'counts-title': (r) => {
    const n = numberValue(r, 'n_records');
    const classes = numberValue(r, 'n_classes');
    return n === null || classes === null ? null : `${plural(n, 'record', 'records')} in ${plural(classes, 'group', 'groups')}`;
  },
  'violators-title': (r) => {
    const v = kViolators(r)[0];
    return v ? `${percent(v.share)} of records in groups smaller than ${count(v.k)}` : null;
  },
  'top-title': (r) => {
    const n = riskiestClasses(r).length;
    return n ? plural(n, 'group listed', 'groups listed') : null;
  },
};
