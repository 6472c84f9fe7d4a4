// The HIPAA Safe Harbor checklist (issue 16): the 18 kinds of identifiers of 45 CFR
// 164.514(b)(2) as the core found them in the file's values and column names, each with its
// status, the columns at fault, why, and one example value (left out of the shareable report).
// Worded as a checklist: "no finding", never "compliant".

import './hipaa.css';
import { el } from '../../ui/dom';
import { count } from '../../ui/format';
import { isRecord, metric, type Report } from '../../shared/report';
import { cellValue, help, section } from '../../ui/view-kit';

const STATUS: Readonly<Record<string, string>> = {
  flagged: 'Found',
  not_found: 'No finding',
  not_checkable: 'Not checkable',
};

export function hipaaView(report: Report): HTMLElement | null {
  const m = metric(report, 'hipaa_safe_harbor');
  if (!m || m.status !== 'ok' || !isRecord(m.details)) return null;
  const kinds = Array.isArray(m.details.kinds) ? m.details.kinds.filter(isRecord) : [];
  const flagged = kinds.filter((k) => k.status === 'flagged').length;
  const partial = Array.isArray(m.details.columns_partially_checked) ? m.details.columns_partially_checked.map(String) : [];
  const items = kinds.map((k) => {
    const status = String(k.status);
    const findings = Array.isArray(k.findings) ? k.findings.filter(isRecord) : [];
    return el(
      'li',
      { class: `hipaa-item hipaa-${status}`, 'data-kind': String(k.id) },
      el(
        'div',
        { class: 'hipaa-head' },
        el('span', { class: 'hipaa-status' }, STATUS[status] ?? status),
        el('span', { class: 'hipaa-label' }, `(${String(k.paragraph)}) ${String(k.label)}`),
      ),
      findings.length
        ? el(
            'ul',
            { class: 'hipaa-findings' },
            ...findings.map((f) =>
              el(
                'li',
                {},
                el('strong', {}, `Column “${String(f.column)}”`),
                `: ${String(f.reason)}`,
                typeof f.example_value === 'string' ? el('span', { class: 'hipaa-example' }, ' — for example ', cellValue(f.example_value)) : null,
              ),
            ),
          )
        : null,
      typeof k.note === 'string' && status !== 'flagged' ? el('p', { class: 'help' }, k.note) : null,
    );
  });
  const node = section(
    'HIPAA Safe Harbor checklist',
    'hipaa-title',
    help(
      'The 18 kinds of identifiers that the Safe Harbor method of the US HIPAA Privacy Rule (45 CFR 164.514(b)(2)) asks to remove, looked for in every column’s values and names. ',
      'This is a checklist of what the file shows, not a statement that the file complies: Safe Harbor also requires that whoever releases it knows of no way the rest could identify a person, and a finding may be a false alarm.',
    ),
    el(
      'p',
      { class: 'hipaa-summary', id: 'hipaa-summary' },
      flagged === 0 ? 'No finding in any of the 18 kinds.' : `Found: ${count(flagged)} of the 18 kinds.`,
    ),
    el('ol', { class: 'hipaa-list', id: 'hipaa-list' }, ...items),
    partial.length
      ? el(
          'p',
          { class: 'note' },
          `These columns hold too many distinct values to keep them, so their values were not read one by one (only their names, how many cells look like e-mail addresses or dates, and how nearly unique they are): ${partial.join(', ')}.`,
        )
      : null,
  );
  return node;
}
