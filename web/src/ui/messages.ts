// User-facing messages: errors from the worker turned into plain sentences that name the line
// and column and say what to do (with a "Read leniently" button where lenient reading helps),
// and notes (cancelled, encoding retry).

import { el } from './dom';
import type { Target } from '../shared/protocol';
import type { WireError } from '../shared/report';

/** The files read beside the released one, as the page's sentences name them. */
export const SIDE_NAMES: Readonly<Record<Exclude<Target, 'table'>, string>> = {
  population: 'population table',
  original: 'original table',
  control: 'control table',
};

/** What the page says about an error: a title naming the line and column, the engine's own
 * sentence with its code, and what the user can do about it. */
export interface Described {
  title: string;
  detail: string;
  advice: string | null;
}

/** Codes on which lenient reading gets past the problem (the page offers "Read leniently"). */
export const LENIENT_HELPS: ReadonlySet<string> = new Set(['ragged_row', 'unclosed_quote', 'field_too_large']);

const LENIENT_HOW = 'each such record is counted and named in a warning, and the report says it is partial';

/** What to do, per error code (`lenient`: the file was already read leniently). */
function adviceFor(e: WireError, lenient: boolean): string | null {
  switch (e.code) {
    case 'ragged_row':
      return `Fix that row in the file, or read the file leniently: short rows are padded with blank cells and long ones cut, and ${LENIENT_HOW}. If the record runs over several lines, a quote on its first line is probably not closed.`;
    case 'unclosed_quote':
      return lenient
        ? 'Lenient reading cannot skip the header row: add the missing closing quote to the header in the file.'
        : `Add the missing closing quote in the file, or read the file leniently: the record with the open quote is skipped and reading goes on at the next line; ${LENIENT_HOW}.`;
    case 'field_too_large':
      return lenient
        ? 'Lenient reading cannot skip the header row: check its quotes in the file.'
        : `If a closing quote is missing, add it; otherwise read the file leniently: the record with that field is skipped, and ${LENIENT_HOW}.`;
    case 'too_many_columns':
      return 'A table with that many columns is usually not a CSV table, or one whose delimiter or quotes are wrong. Check that record, or save the table again as CSV.';
    case 'not_text':
      return 'Choose the table as CSV, Parquet or Excel .xlsx: if it is an older spreadsheet (Excel .xls, LibreOffice .ods), open it there and save it as CSV (comma-separated values) or .xlsx; unpack a compressed file first.';
    case 'unreadable_parquet':
    case 'unreadable_xlsx':
    case 'reader_stopped':
      return 'The file may be damaged or cut short (a download that did not finish, say). Write it again from the program that made it, or save the table as CSV.';
    case 'parquet_codec_unsupported':
      return 'Write the Parquet file again with Snappy, gzip or LZ4 compression (in pandas: to_parquet(..., compression="snappy"); in polars: write_parquet(..., compression="snappy")), or audit it with the command-line tool, which reads Zstandard and Brotli.';
    case 'unsupported_column_type':
      return 'Leave that column out of the file, or store it as text.';
    case 'unsupported_format':
      return 'Open it in the program that made it and save the table as Excel .xlsx or as CSV.';
    case 'side_table_not_csv':
      return 'Save that table as CSV (comma-separated values) and choose it again.';
    case 'invalid_encoding':
      return 'The file is UTF-16 text with a broken character there. Open it in the program that made it and save it again, preferably as CSV UTF-8.';
    case 'encoding_mismatch':
      return 'Save the file again as CSV UTF-8 in the program that made it.';
    case 'too_many_values':
      return 'A column with that many different values singles out records by itself: give it the role “Direct identifier”, “Other” or “Ignored”, not quasi-identifier, sensitive or person id.';
    case 'memory_budget_exceeded':
      return 'Choose fewer quasi-identifiers, or coarser ones (generalize them first), or audit the file with the command-line tool, which can be given a larger memory budget (--memory-budget).';
    case 'duplicate_column':
      return 'Rename one of the two columns in the header row of the file.';
    default:
      return null;
  }
}

/**
 * `source` names what was read (a file name, or the sample); `side`: it is a file read beside
 * the released one (population, original), so every title names it; `lenient`: it was read
 * leniently.
 */
export function describeError(e: WireError, source: string, side = false, lenient = false): Described {
  const where =
    e.line !== null
      ? `line ${e.line.toLocaleString('en-US')}${e.column !== null ? `, column “${e.column}”` : ''}`
      : e.column !== null
        ? `column “${e.column}”`
        : null;
  const detail = `${e.message.charAt(0).toUpperCase()}${e.message.slice(1)} (${e.code})`;
  const advice = adviceFor(e, lenient);
  if (e.code === 'reader_stopped') {
    // A panic inside a third-party reader: the worker that ran it has stopped (and restarts).
    return { title: `${source} stopped the file reader: it may be damaged or cut short.`, detail, advice };
  }
  if (e.code === 'readers_unavailable') {
    // The readers are fetched when the first Parquet or Excel file is chosen (issue 40).
    return {
      title: `${source} needs the Parquet and Excel readers, which could not be fetched.`,
      detail,
      advice: navigator.onLine
        ? 'Choose the file again; if it fails again, reload the page, or save the file as CSV (a CSV needs nothing more).'
        : 'This browser is offline and the page is not installed for offline use. Choose the file again once the connection is back, or save it as CSV (a CSV needs nothing more).',
    };
  }
  if (e.code === 'full_engine_unavailable') {
    // The full engine is fetched at the first request that needs it (issue 40).
    return {
      title: 'These settings need the full engine, which could not be fetched.',
      detail,
      advice: navigator.onLine
        ? 'Run again; if it fails again, reload the page. A first report without SUDA, the HIPAA checklist, an original or control table, the attacks, the synthetic measures or protect needs nothing more.'
        : 'This browser is offline and the page is not installed for offline use. Run again once the connection is back; a first report without SUDA, the HIPAA checklist, an original or control table, the attacks, the synthetic measures or protect needs nothing more.',
    };
  }
  if (e.code === 'empty_file') {
    return {
      title: 'The file is empty.',
      detail: `${source} has no header row and no data. Choose a file (CSV, Parquet or Excel .xlsx) with a header row and at least one data row.`,
      advice: null,
    };
  }
  switch (e.kind) {
    case 'input':
      return { title: inputTitle(e.code, source, where), detail, advice };
    case 'encoding':
      return { title: `The text encoding of ${side ? source : 'the file'} could not be read${where ? ` (${where})` : ''}.`, detail, advice };
    case 'config':
      return {
        title: side
          ? `${source} does not fit the settings${where ? ` (${where})` : ''}.`
          : `The audit settings were not accepted${where ? ` (${where})` : ''}.`,
        detail,
        advice,
      };
    case 'internal':
      return { title: 'Something went wrong inside the audit engine.', detail, advice };
    default:
      return { title: 'The audit failed.', detail, advice };
  }
}

/** What is wrong, per code, after "has a problem at line L, column C". */
const WHAT: Readonly<Record<string, string>> = {
  ragged_row: 'the record there does not have as many fields as the header',
  unclosed_quote: 'a quote opened there is never closed',
  field_too_large: 'a field longer than 10 MiB',
  too_many_columns: 'a record of more than 100,000 fields',
  too_many_values: 'a column with too many different values',
  memory_budget_exceeded: 'the audit needs more memory than it may take',
  duplicate_column: 'a column name used twice',
  unreadable_parquet: 'it is not a readable Parquet file',
  parquet_codec_unsupported: 'its compression cannot be read in the browser',
  unreadable_xlsx: 'it is not a readable Excel workbook',
  reader_stopped: 'the reader stopped on it',
  unsupported_column_type: 'a column whose values are not cells of a table',
  side_table_not_csv: 'it is not a CSV file',
  unsupported_format: 'pseudolens does not read this kind of file',
};

/** The title of an error in the file itself: where it is, and what is wrong. */
function inputTitle(code: string, source: string, where: string | null): string {
  if (code === 'not_text') {
    return where ? `${source} does not look like a text (CSV) file: it holds a NUL byte at ${where}.` : `${source} does not look like a text (CSV) file.`;
  }
  const what = WHAT[code];
  if (!where) return what ? `${source} could not be read as a table: ${what}.` : `${source} could not be read as a table.`;
  return `${source} has a problem at ${where}${what ? `: ${what}` : ''}.`;
}

export type MessageKind = 'error' | 'note' | 'success';

/** A button in a message, such as "Read leniently". */
export interface MessageAction {
  label: string;
  id: string;
  run: () => void;
}

/** What a message may carry below its detail: advice, and one action. */
export interface MessageExtras {
  advice?: string | null;
  action?: MessageAction | null;
}

/** Replaces the message area with one message. Errors are announced at once (role=alert). */
export function showMessage(area: HTMLElement, kind: MessageKind, title: string, detail = '', extras: MessageExtras = {}): void {
  const action = extras.action;
  let button: HTMLButtonElement | null = null;
  if (action) {
    button = el('button', { type: 'button', class: 'button message-action', id: action.id }, action.label);
    button.addEventListener('click', action.run);
  }
  area.replaceChildren(
    el(
      'div',
      { class: `message message-${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-kind': kind },
      el('p', { class: 'message-title' }, title),
      detail ? el('p', { class: 'message-detail' }, detail) : null,
      extras.advice ? el('p', { class: 'message-advice' }, extras.advice) : null,
      button ? el('p', { class: 'message-actions' }, button) : null,
    ),
  );
}

/** Adds a message below the current ones. */
export function addMessage(area: HTMLElement, kind: MessageKind, title: string, detail = '', extras: MessageExtras = {}): void {
  const holder = document.createElement('div');
  showMessage(holder, kind, title, detail, extras);
  area.append(...holder.childNodes);
}

export function clearMessages(area: HTMLElement): void {
  area.replaceChildren();
}

/** Removes the error messages (results just shown supersede them); notes stay. */
export function removeErrors(area: HTMLElement): void {
  for (const m of area.querySelectorAll('.message-error')) m.remove();
}
