// "Attacks on the release": Anonymeter's three attacks as the core ran them (spec
// peer-measures.md Sec 5; crate/core/src/attack). One row per attack with its risk and the
// interval, then what the attack achieved, what it achieved on the control table and what a
// random guess achieves; the words under the table say what each attack tried. The singling-out
// queries describe single records: listed folded, and left out of a shareable report.

import { el, scrollTable } from '../../ui/dom';
import { count, percent } from '../../ui/format';
import { attacksOf, hadControl, type AttackKind, type AttackResult } from '../../shared/attack-data';
import type { Report } from '../../shared/report';
import { missingReason, section } from '../../ui/view-kit';

const NAMES: Readonly<Record<AttackKind, string>> = {
  singling_out: 'Singling out',
  linkability: 'Linkability',
  inference: 'Inference',
};

const WHAT: Readonly<Record<AttackKind, string>> = {
  singling_out:
    'Singling out: the attacker writes rules from the released records (“age ≥ 60 and sex = M”) that fit exactly one released record, and counts how many of them fit exactly one person of the original.',
  linkability:
    'Linkability: the attacker knows two halves of a person’s columns from two sources and joins them through the closest released records; a success is a person whose two halves lead to the same released record.',
  inference:
    'Inference: the attacker knows some columns of a person, finds the closest released record and reads the sensitive column from it; a success is a right guess.',
};

function label(a: AttackResult): string {
  return a.kind === 'inference' && a.secret ? `${NAMES[a.kind]} of ${a.secret}` : NAMES[a.kind];
}

function riskCell(a: AttackResult, report: Report): HTMLElement {
  if (!a.risk) return el('span', {}, missingReason(report, a.metric.id) ?? '—');
  const r = a.risk;
  return el(
    'span',
    { class: 'attack-risk', 'data-risk': String(r.value) },
    `${percent(r.value)} `,
    el('span', { class: 'help' }, `(${Math.round(r.level * 100)} %: ${percent(r.low)} to ${percent(r.high)})`),
  );
}

function successes(k: number | null, n: number | null): string {
  return k === null || n === null ? '—' : `${count(k)} of ${count(n)}`;
}

export function attacksView(report: Report): HTMLElement | null {
  const attacks = attacksOf(report);
  if (attacks.length === 0) return null;
  const control = hadControl(report);
  const head = ['Attack', 'Risk', 'Attack succeeded', control ? 'On the control' : 'Rate', 'Random guess'];
  const rows = attacks.map((a) => [
    label(a),
    riskCell(a, report),
    successes(a.successes, a.nAttacks),
    control ? successes(a.controlSuccesses, a.nAttacks) : percent(a.attackRate),
    percent(a.baselineRate),
  ]);
  const seed = attacks.find((a) => a.seed !== null)?.seed ?? null;
  const intro = control
    ? 'The risk is what the release adds: how much better each attack does on the original people than on the control people, who were not used to make the release (0 % = no better than on strangers). '
    : 'Without a control table the risk is the attack’s own success rate, which also counts what anyone could guess about such people: give a control table for the share the release adds. ';
  const singling = attacks.find((a) => a.kind === 'singling_out' && a.queries.length > 0);
  const queries = singling
    ? el(
        'details',
        { class: 'attack-queries', id: 'attack-queries' },
        el('summary', {}, `The first ${count(singling.queries.length)} singling-out rules (of ${count(singling.nQueries ?? singling.queries.length)})`),
        el('p', { class: 'help' }, 'Each rule describes one released record; a shareable report leaves them out.'),
        el(
          'ul',
          {},
          ...singling.queries.map((q) =>
            el('li', { 'data-singles-out': String(q.singlesOut) }, el('code', {}, q.query), q.singlesOut ? ' — fits exactly one original person' : ''),
          ),
        ),
      )
    : null;
  const notBetter = attacks.filter((a) => a.metric.warnings.includes('attack_not_better_than_baseline')).map(label);
  return section(
    'Attacks on the release',
    'attacks-title',
    el(
      'p',
      { class: 'help' },
      'Three attackers try to learn about the people of the original table from the released file, as Anonymeter (reviewed by the CNIL) does. ' +
        intro +
        'The interval is where the true risk lies with 95 % confidence given the number of attacks; a random guess shows what chance alone achieves. ' +
        (seed !== null ? `The random draws use seed ${count(seed)}: the same files and settings give the same figures.` : ''),
    ),
    scrollTable('Attacks on the release', head, rows, [1, 2, 3, 4]),
    el('ul', { class: 'attack-explained' }, ...[...new Set(attacks.map((a) => a.kind))].map((k) => el('li', {}, WHAT[k]))),
    notBetter.length ? el('p', { class: 'help', id: 'attack-not-better' }, `No better than a random guess: ${notBetter.join(', ')}.`) : null,
    queries,
  );
}
