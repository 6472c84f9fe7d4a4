// User-facing messages: errors from the worker turned into plain sentences that name the line
// and column, and notes (cancelled, encoding retry).

import { el } from './dom';
import type { Target } from './protocol';
import type { WireError } from './report';

/** The files read beside the released one, as the page's sentences name them. */
export const SIDE_NAMES: Readonly<Record<Exclude<Target, 'table'>, string>> = {
  population: 'population table',
  original: 'original table',
};

/**
 * `source` names what was read (a file name, or the sample); `side`: it is a file read beside
 * the released one (population, original), so every title names it.
 */
export function describeError(e: WireError, source: string, side = false): { title: string; detail: string } {
  const where =
    e.line !== null
      ? `line ${e.line.toLocaleString('en-US')}${e.column !== null ? `, column “${e.column}”` : ''}`
      : e.column !== null
        ? `column “${e.column}”`
        : null;
  const detail = `${e.message} (${e.code})`;
  if (e.code === 'empty_file') {
    return {
      title: 'The file is empty.',
      detail: `${source} has no header row and no data. Choose a CSV file with a header row and at least one data row.`,
    };
  }
  switch (e.kind) {
    case 'input':
      return {
        title: where ? `${source} has a problem at ${where}.` : `${source} could not be read as a table.`,
        detail,
      };
    case 'encoding':
      return { title: `The text encoding of ${side ? source : 'the file'} could not be read${where ? ` (${where})` : ''}.`, detail };
    case 'config':
      return {
        title: side ? `${source} does not fit the settings${where ? ` (${where})` : ''}.` : `The audit settings were not accepted${where ? ` (${where})` : ''}.`,
        detail,
      };
    case 'internal':
      return { title: 'Something went wrong inside the audit engine.', detail };
    default:
      return { title: 'The audit failed.', detail };
  }
}

export type MessageKind = 'error' | 'note' | 'success';

/** Replaces the message area with one message. Errors are announced at once (role=alert). */
export function showMessage(area: HTMLElement, kind: MessageKind, title: string, detail = ''): void {
  area.replaceChildren(
    el(
      'div',
      { class: `message message-${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-kind': kind },
      el('p', { class: 'message-title' }, title),
      detail ? el('p', { class: 'message-detail' }, detail) : null,
    ),
  );
}

/** Adds a message below the current ones. */
export function addMessage(area: HTMLElement, kind: MessageKind, title: string, detail = ''): void {
  const holder = document.createElement('div');
  showMessage(holder, kind, title, detail);
  area.append(...holder.childNodes);
}

export function clearMessages(area: HTMLElement): void {
  area.replaceChildren();
}
