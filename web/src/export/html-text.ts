// The saved reports are written as HTML text (they carry no script): text escaped, and a table
// of rows already written, kept on one printed page when it is short.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
const esc = escapeHtml;

/** Tables with at most this many rows are kept on one printed page. */
export const KEEP_TOGETHER_ROWS = 16;

/** A table of `rows` (each a `<tr>` written already) under `head`, its caption for screen readers. */
export function htmlTable(caption: string, head: string[], rows: string[], className = ''): string {
  return (
    `<div class="table-wrap${rows.length < KEEP_TOGETHER_ROWS ? ' keep' : ''}"><table class="${esc(className)}"><caption class="visually-hidden">${esc(caption)}</caption>` +
    `<thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`
  );
}
