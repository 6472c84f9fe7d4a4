// Step 2, the column matching of the population / reference table E (spec balance.md Sec 1:
// the quasi-identifiers it shares with the release are matched by name, and the user can
// correct the matching). The page learns E's column names from the core, which reads the
// header (encoding, delimiter, quotes) exactly as the audit will (`HeaderReader`: the worker's
// `probe` of the file's start). Each QI gets a select of E's columns; QIs mapped to a column
// of another name become `reference_columns` (unlisted QIs match by name in the core).

import { el } from '../ui/dom';

/** The value of "not in the reference table". */
const NONE = '';

/** The column names of a table's header as the core reads them (null: it cannot, there). */
export type HeaderReader = (file: File) => Promise<string[] | null>;

export interface ReferenceMatching {
  node: HTMLElement;
  /** The reference file chosen or removed. */
  setFile(file: File | null): void;
  /** The quasi-identifiers of the release changed (roles of step 2). */
  setQuasiIdentifiers(qis: readonly string[]): void;
  /** QI -> column of E, for the QIs matched to a column of another name. */
  read(): Record<string, string>;
}

export function referenceMatching(readHeader: HeaderReader): ReferenceMatching {
  let header: string[] | null = null;
  let qis: string[] = [];
  let token = 0;
  /** The user's choices, kept across re-renders (roles changing). */
  const chosen = new Map<string, string>();
  const body = el('div', { class: 'reference-matching-rows' });
  const node = el(
    'fieldset',
    { class: 'reference-matching', id: 'reference-matching', hidden: true },
    el('legend', {}, 'Matching with the population table'),
    el(
      'p',
      { class: 'help', id: 'reference-matching-help' },
      'Each quasi-identifier is matched with the column of the same name in the population table. If the population table names it otherwise, choose its column here.',
    ),
    body,
  );

  const render = () => {
    node.hidden = header === null || qis.length === 0;
    if (node.hidden || header === null) {
      body.replaceChildren();
      return;
    }
    const columns = header;
    body.replaceChildren(
      ...qis.map((qi, i) => {
        const id = `reference-column-${i}`;
        const byName = columns.includes(qi);
        const current = chosen.get(qi);
        const value = current !== undefined && (current === NONE ? !byName : columns.includes(current)) ? current : byName ? qi : NONE;
        const select = el(
          'select',
          { id, 'data-qi': qi, 'aria-describedby': 'reference-matching-help' },
          // The core matches a QI by name when the table has it: "not in the table" is only
          // offered when it does not.
          byName ? null : el('option', { value: NONE }, 'not in the reference table'),
          ...columns.map((c) => el('option', { value: c, selected: c === value }, c)),
        );
        select.value = value;
        select.addEventListener('change', () => chosen.set(qi, select.value));
        return el('div', { class: 'reference-matching-row' }, el('label', { for: id }, qi), select);
      }),
    );
  };

  return {
    node,
    setFile(file) {
      const mine = ++token;
      header = null;
      chosen.clear();
      render();
      if (!file) return;
      readHeader(file).then(
        (names) => {
          if (mine !== token || !names) return;
          header = names.filter((n, i) => n !== '' && names.indexOf(n) === i);
          render();
        },
        () => {
          // An unreadable header: the worker will report the file's problem when it reads it.
        },
      );
    },
    setQuasiIdentifiers(next) {
      if (next.length === qis.length && next.every((q, i) => q === qis[i])) return;
      qis = [...next];
      render();
    },
    read() {
      const out: Record<string, string> = {};
      for (const select of body.querySelectorAll<HTMLSelectElement>('select[data-qi]')) {
        const qi = select.dataset.qi!;
        if (select.value !== NONE && select.value !== qi) out[qi] = select.value;
      }
      return out;
    },
  };
}
