// Step 2, the attribute-disclosure settings: the l, t and beta thresholds whose failing classes
// the results list, the distance and reference of t-closeness, the ordinal sensitive columns
// and their orders, a sensitive column's hierarchy, and the SCORR verdict's compliance rule (k
// above k_min, t at most t_max, k counted in records or in persons).

import { el } from '../ui/dom';
import { ATTRIBUTE_SETTINGS_HELP as HELP, K_BASIS_HELP } from '../ui/explain';
import type { KBasis } from '../shared/report';
import type { SaMode, TDistance, TReference } from '../shared/contract';
import type { AttributeSettings } from './settings';
import { DEFAULT_L_THRESHOLD, DEFAULT_SCORR_K_MIN, DEFAULT_SCORR_T_MAX, DEFAULT_T_THRESHOLD } from './roles';

interface FieldSpec {
  id: string;
  label: string;
  help: string;
  value: number | null;
  min: number;
  max?: number;
  step: number;
  placeholder?: string;
}

function field(spec: FieldSpec): { node: HTMLElement; input: HTMLInputElement } {
  const input = el('input', {
    id: spec.id,
    type: 'number',
    min: spec.min,
    max: spec.max,
    step: spec.step,
    value: spec.value ?? undefined,
    placeholder: spec.placeholder,
    inputmode: 'decimal',
    'aria-describedby': `${spec.id}-help`,
  });
  const node = el(
    'div',
    { class: 'number-field' },
    el('label', { for: spec.id }, spec.label),
    input,
    el('p', { class: 'help', id: `${spec.id}-help` }, spec.help),
  );
  return { node, input };
}

function choice<T extends string>(id: string, label: string, help: string, options: readonly [T, string][]): { node: HTMLElement; select: HTMLSelectElement } {
  const select = el('select', { id, 'aria-describedby': `${id}-help` }, ...options.map(([value, text]) => el('option', { value }, text)));
  const node = el('div', { class: 'select-field' }, el('label', { for: id }, label), select, el('p', { class: 'help', id: `${id}-help` }, help));
  return { node, select };
}

/** `column: a, b, c` lines as column -> labels (lines without a colon or labels are skipped). */
export function parseOrders(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at < 0) continue;
    const column = line.slice(0, at).trim();
    const labels = line
      .slice(at + 1)
      .split(',')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    if (column && labels.length) out[column] = labels;
  }
  return out;
}

/** The lines `parseOrders` reads back. */
export function ordersText(orders: Record<string, string[]>): string {
  return Object.entries(orders)
    .map(([column, labels]) => `${column}: ${labels.join(', ')}`)
    .join('\n');
}

/** An ARX hierarchy file (`;`-separated, one row per leaf) as rows of trimmed cells. */
export function parseHierarchy(text: string): string[][] {
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(';').map((c) => c.trim()));
}

/** An empty box reads as NaN (required fields) or null (optional ones). */
const read = (input: HTMLInputElement): number => (input.value.trim() === '' ? NaN : Number(input.value));

export function attributeSettings(): { nodes: HTMLElement[]; read(): AttributeSettings; write(s: AttributeSettings): void } {
  const l = field({ id: 'l-threshold', label: 'Distinct values per class (l)', help: HELP.l, value: DEFAULT_L_THRESHOLD, min: 1, step: 1 });
  const t = field({ id: 't-threshold', label: 'Distance from the whole file (t)', help: HELP.t, value: DEFAULT_T_THRESHOLD, min: 0, max: 1, step: 0.01 });
  const beta = field({ id: 'beta-threshold', label: 'Relative gain (β), optional', help: HELP.beta, value: null, min: 0, step: 0.1, placeholder: 'none' });
  const distance = choice<TDistance>('t-distance', 'Distance of t-closeness', HELP.tDistance, [
    ['auto', 'Automatic (by the column’s kind)'],
    ['equal', 'Equal (every two values equally far)'],
    ['ordered', 'Ordered (numeric or ordinal columns)'],
    ['hierarchical', 'Hierarchical (needs a hierarchy)'],
  ]);
  const reference = choice<TReference>('t-reference', 'Compare each class with', HELP.tReference, [
    ['released', 'The released file'],
    ['original', 'The original file'],
  ]);
  const mode = choice<SaMode>('sa-mode', 'Several sensitive columns', HELP.saMode, [
    ['per_attribute', 'Each column on its own'],
    ['combined', 'Their combination as one column'],
    ['extend_qi', 'Each, with the others as quasi-identifiers'],
  ]);
  const orders = el('textarea', { id: 'sa-orders', rows: 2, placeholder: 'severity: low, mid, high', 'aria-describedby': 'sa-orders-help', spellcheck: false });
  const ordersNode = el(
    'div',
    { class: 'text-field' },
    el('label', { for: 'sa-orders' }, 'Ordinal sensitive columns, optional'),
    orders,
    el('p', { class: 'help', id: 'sa-orders-help' }, HELP.orders),
  );
  // The hierarchy: a column name and an ARX file, read when chosen (a change of either field
  // marks the results out of date; the file's rows are kept here once read).
  let hierarchies: Record<string, string[][]> = {};
  let rows: string[][] | null = null;
  const hierarchyColumn = el('input', { id: 'sa-hierarchy-column', type: 'text', placeholder: 'column name', 'aria-describedby': 'sa-hierarchy-help' });
  const hierarchyFile = el('input', {
    id: 'sa-hierarchy-file',
    type: 'file',
    accept: '.csv,.txt,text/csv,text/plain',
    'aria-describedby': 'sa-hierarchy-help',
  });
  const current = (): Record<string, string[][]> => {
    const column = hierarchyColumn.value.trim();
    return column && rows ? { ...hierarchies, [column]: rows } : { ...hierarchies };
  };
  hierarchyFile.addEventListener('change', () => {
    const file = hierarchyFile.files?.[0];
    if (!file) return;
    void file.text().then((text) => {
      rows = parseHierarchy(text);
      hierarchyColumn.dispatchEvent(new Event('input', { bubbles: true }));
    });
  });
  const hierarchyNode = el(
    'fieldset',
    { class: 'sa-hierarchy' },
    el('legend', {}, 'Hierarchy of a sensitive column, optional'),
    el('label', { for: 'sa-hierarchy-column' }, 'Column'),
    hierarchyColumn,
    el('label', { for: 'sa-hierarchy-file' }, 'Hierarchy file (ARX layout)'),
    hierarchyFile,
    el('p', { class: 'help', id: 'sa-hierarchy-help' }, HELP.hierarchy),
  );
  const attribute = el(
    'fieldset',
    { class: 'attribute-settings' },
    el('legend', {}, 'Attribute disclosure (sensitive columns)'),
    el('p', { class: 'help' }, HELP.intro),
    l.node,
    t.node,
    beta.node,
    distance.node,
    reference.node,
    mode.node,
    ordersNode,
    hierarchyNode,
  );

  const kMin = field({ id: 'scorr-k-min', label: 'k must be above', help: HELP.kMin, value: DEFAULT_SCORR_K_MIN, min: 0, step: 1 });
  const tMax = field({ id: 'scorr-t-max', label: 't must be at most', help: HELP.tMax, value: DEFAULT_SCORR_T_MAX, min: 0, max: 1, step: 0.01 });
  const basis = (value: KBasis, label: string, checked: boolean) =>
    el(
      'div',
      { class: 'radio' },
      el('input', { type: 'radio', name: 'scorr-k-basis', id: `scorr-k-${value}`, value, checked, 'aria-describedby': `scorr-k-${value}-help` }),
      el('label', { for: `scorr-k-${value}` }, label),
      el('p', { class: 'help', id: `scorr-k-${value}-help` }, K_BASIS_HELP[value]),
    );
  const scorr = el(
    'fieldset',
    { class: 'scorr-settings' },
    el('legend', {}, 'SCORR verdict'),
    el('p', { class: 'help' }, HELP.scorr),
    kMin.node,
    tMax.node,
    el(
      'fieldset',
      { class: 'k-basis' },
      el('legend', {}, 'Count k in'),
      basis('records', 'Records (rows)', true),
      basis('persons', 'Persons (needs a person id column)', false),
    ),
  );

  const write = (s: AttributeSettings) => {
    l.input.value = String(s.lThreshold);
    t.input.value = String(s.tThreshold);
    beta.input.value = s.betaThreshold === null ? '' : String(s.betaThreshold);
    kMin.input.value = String(s.scorrKMin);
    tMax.input.value = String(s.scorrTMax);
    for (const r of scorr.querySelectorAll<HTMLInputElement>('input[name="scorr-k-basis"]')) r.checked = r.value === s.scorrKBasis;
    distance.select.value = s.tDistance;
    reference.select.value = s.tReference;
    mode.select.value = s.saMode;
    orders.value = ordersText(s.orders);
    // A settings file's hierarchies are kept as they are; the fields stay for a new one.
    hierarchies = { ...s.hierarchies };
    rows = null;
    hierarchyColumn.value = '';
    hierarchyFile.value = '';
  };
  return {
    write,
    nodes: [attribute, scorr],
    read: () => ({
      lThreshold: read(l.input),
      tThreshold: read(t.input),
      betaThreshold: beta.input.value.trim() === '' ? null : Number(beta.input.value),
      scorrKMin: read(kMin.input),
      scorrTMax: read(tMax.input),
      scorrKBasis: scorr.querySelector<HTMLInputElement>('input[name="scorr-k-basis"]:checked')?.value === 'persons' ? 'persons' : 'records',
      tDistance: distance.select.value as TDistance,
      tReference: reference.select.value as TReference,
      saMode: mode.select.value as SaMode,
      orders: parseOrders(orders.value),
      hierarchies: current(),
    }),
  };
}
