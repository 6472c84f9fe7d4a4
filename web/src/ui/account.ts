// The account of a file as the core read it (issue 10): every byte and every record, from the
// report's `input`. "N bytes read (= the file's size) · R records = 1 header + A rows + B
// blank + E in error". The page shows it wherever it describes a file it read (profile,
// results, candidates, the HTML report) and checks the bytes against the File's size. Beside
// it, the results say how many rows the audit covered and warn when a policy left many out
// (issue 36: "Drop the row" once audited 11 of 10,000 rows under "10,000 audited").

import { el } from './dom';
import { count, plural } from './format';
import { numberValue, type InputFacts, type Report } from '../shared/report';

/** A delimiter by name: comma, semicolon, tab, pipe, space, else the character quoted. */
export function delimiterName(d: string): string {
  const names: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe', ' ': 'space' };
  return names[d] ?? `"${d}"`;
}

/**
 * How the file was read, after "read as" / "read from": its encoding and delimiter for CSV
 * ("utf-8 with comma as delimiter"), else its format ("a Parquet file", "sheet “Data” of an
 * Excel workbook").
 */
export function readAsText(input: InputFacts): string {
  switch (input.format) {
    case 'parquet':
      return 'a Parquet file';
    case 'xlsx':
      return input.sheet !== null ? `sheet “${input.sheet}” of an Excel workbook` : 'an Excel workbook';
    case 'arrow':
      return 'Arrow columns';
    default:
      return `${input.encoding} with ${delimiterName(input.delimiter)} as delimiter`;
  }
}

/** "R records = 1 header + A rows + B blank + E in error". */
export function recordsText(input: InputFacts): string {
  return (
    `${plural(input.records, 'record', 'records')} = ${count(input.header_records)} header + ` +
    `${count(input.rows_total)} rows + ${count(input.blank_records)} blank + ${count(input.error_records)} in error`
  );
}

/** The warnings on the rows an audit covers (the core's `scope` module), shown beside the
 * account of the rows in scope rather than in the list of the other warnings. */
export const SCOPE_WARNINGS = new Set(['rows_left_out', 'qi_mostly_blank']);

/**
 * The rows the audit covered, "S of A rows in scope (L left out: D with a blank
 * quasi-identifier, U fully suppressed)" (`.scope-account`), and the core's warnings when a
 * policy left many out or a quasi-identifier is mostly blank, as alerts beside it; nothing
 * without quasi-identifiers.
 */
export function scopeNodes(report: Report): HTMLElement[] {
  const rows = numberValue(report, 'n_records_total');
  const inScope = numberValue(report, 'n_records');
  if (rows === null || inScope === null) return [];
  const dropped = numberValue(report, 'n_dropped_records') ?? 0;
  const suppressed = numberValue(report, 'n_suppressed_records') ?? 0;
  const why = [
    dropped > 0 ? `${count(dropped)} with a blank quasi-identifier (“Drop the row”)` : null,
    suppressed > 0 ? `${count(suppressed)} with every quasi-identifier suppressed` : null,
  ].filter((w): w is string => w !== null);
  const left = rows - inScope;
  const text = `Audited: ${count(inScope)} of ${plural(rows, 'row', 'rows')} in scope${left > 0 ? ` (${count(left)} left out: ${why.join(', ')})` : ''}.`;
  const alerts = report.warnings
    .filter((w) => SCOPE_WARNINGS.has(w.code))
    .map((w) => el('p', { class: 'alert scope-warning', role: 'note', 'data-code': w.code }, `${w.message.charAt(0).toUpperCase()}${w.message.slice(1)}.`));
  return [el('p', { class: 'scope-account', 'data-in-scope': inScope, 'data-rows': rows }, text), ...alerts];
}

/** "N bytes read (= the file's size)"; `size` is the File's size when the page knows it. */
export function bytesText(input: InputFacts, size: number | null): string {
  const read = `${plural(input.bytes, 'byte', 'bytes')} read`;
  if (size === null) return read;
  return input.bytes === size ? `${read} (= the file's size)` : `${read} (the file has ${plural(size, 'byte', 'bytes')})`;
}

/** The whole account line. */
export function accountText(input: InputFacts, size: number | null): string {
  return `${bytesText(input, size)} · ${recordsText(input)}`;
}

/** Why the bytes read differ from the file's size, or null when they agree (or it is unknown). */
export function sizeMismatch(input: InputFacts, size: number | null, label: string): string | null {
  if (size === null || input.bytes === size) return null;
  return `${label} has ${plural(size, 'byte', 'bytes')}, but ${plural(input.bytes, 'byte', 'bytes')} were read. The file may have changed while it was read, or could not be read whole: choose it again. Nothing below describes the whole file.`;
}

/** The account as a paragraph (`.read-account`), and the partial-report alert when records were left out. */
export function accountNodes(input: InputFacts, size: number | null): HTMLElement[] {
  const nodes: HTMLElement[] = [el('p', { class: 'read-account', 'data-bytes': input.bytes, 'data-records': input.records }, accountText(input, size))];
  if (input.error_records > 0) nodes.push(partialNote(input));
  return nodes;
}

/** "This report is partial": records in error were left out (lenient reading). */
export function partialNote(input: InputFacts): HTMLElement {
  return el(
    'p',
    { class: 'alert partial-note', role: 'note' },
    `This report is partial: ${plural(input.error_records, 'record', 'records')} of the file's ${count(input.records)} could not be read and ${input.error_records === 1 ? 'was' : 'were'} left out. The warnings say where.`,
  );
}
