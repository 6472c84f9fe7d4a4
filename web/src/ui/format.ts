// Display rules: scores in [0, 1] with 4 decimals, percentages with 2 decimals, counts with
// thousands separators, a utility query in words. One locale everywhere so the page reads the
// same on every machine.

import type { UtilityQuery } from '../shared/report';

const LOCALE = 'en-US';
const DASH = '—';

/** The locale's number formats, made once each (a `toLocaleString` with options makes a new
 * formatter per call: 23 ms of the 1M-row report's rendering). */
const formats = new Map<string, Intl.NumberFormat>();
function format(x: number, minDigits: number, maxDigits: number): string {
  const key = `${minDigits},${maxDigits}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: minDigits, maximumFractionDigits: maxDigits })));
  return f.format(x);
}

export function count(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return DASH;
  return Number.isInteger(n) ? format(n, 0, 0) : format(n, 4, 4);
}

/** A score in [0, 1]: 4 decimals. */
export function score(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return DASH;
  return x.toFixed(4);
}

/** A share in [0, 1] shown as a percentage with 2 decimals. A share that is not 0 never reads
 * "0.00%" (a combination singling out one record of a million is "< 0.01%"), nor one short of
 * the whole "100.00%". */
export function percent(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return DASH;
  const text = `${(share * 100).toFixed(2)}%`;
  if (share > 0 && text === '0.00%') return '< 0.01%';
  if (share < 1 && text === '100.00%') return '> 99.99%';
  return text;
}

/** "1 row", "2 rows", "1,000 rows": the count with the noun in the number it takes. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** Longest value from the file shown whole; a longer one is cut (`fileValue`). */
export const VALUE_CHARS = 80;

/** A value from the user's file as the page shows it: whole up to VALUE_CHARS characters,
 * else its start, an ellipsis and its length ("xxxx… (2,000,000 characters)"). Values are
 * never printed whole beyond that: a 2 MB field would make the page a million pixels tall. */
export function fileValue(v: string): string {
  if (v.length <= VALUE_CHARS) return v; // UTF-16 units: never fewer than characters
  const chars = Array.from(v);
  if (chars.length <= VALUE_CHARS) return v;
  return `${chars.slice(0, VALUE_CHARS - 20).join('')}… (${count(chars.length)} characters)`;
}

/** A file size: kB below 1 MB, else MB. */
export function fileSize(bytes: number): string {
  return bytes < 1e6 ? `${format(Math.max(1, Math.round(bytes / 1e3)), 0, 0)} kB` : megabytes(bytes);
}

/** Bytes as decimal megabytes (1 MB = 10^6 bytes, the unit of MB/s). */
export function megabytes(bytes: number): string {
  return `${format(bytes / 1e6, 1, 1)} MB`;
}

export function rate(mbPerSec: number): string {
  return `${format(mbPerSec, 1, 1)} MB/s`;
}

/** A risk bin edge of the ARX risk distribution, compact: 1e-8 … 0.334, 1. */
export function edge(x: number): string {
  if (x < 0.001) return x.toExponential(0).replace('e-', 'e−');
  return String(Number(x.toPrecision(3)));
}

/** A small share as a percentage: 2 decimals, or 2 significant digits below 0.01 %. */
export function smallPercent(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return DASH;
  const pct = share * 100;
  if (pct === 0) return '0%';
  if (Math.abs(pct) >= 0.01) return `${pct.toFixed(2)}%`;
  return `${Number(pct.toPrecision(2))}%`;
}

/** A sampling fraction as a percentage without trailing zeros: 0.001 -> "0.1%", 1 -> "100%". */
export function fractionPercent(pi: number): string {
  return `${Number((pi * 100).toPrecision(3))}%`;
}

/** A number with exactly `digits` decimals and thousands separators. */
export function decimal(x: number | null | undefined, digits: number): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return DASH;
  return format(x, digits, digits);
}

/** A measured quantity (a mean, a spread) in the column's own unit: 4 significant digits, at
 * least the whole part, thousands separators ("49,231", "38.25", "0.1235"). */
export function quantity(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return DASH;
  const whole = Math.abs(x) >= 1 ? Math.floor(Math.log10(Math.abs(x))) + 1 : 0;
  const digits = Math.abs(x) >= 1 ? Math.max(0, 4 - whole) : 4;
  return format(x, 0, digits);
}

/** A difference with its sign (true minus sign, "+" for increases, no sign for 0). */
export function signed(x: number | null | undefined, text: (v: number) => string): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return DASH;
  const magnitude = text(Math.abs(x));
  // A difference that rounds to zero gets no sign ("0.0%", not "−0.0%").
  if (!/[1-9]/.test(magnitude)) return magnitude;
  return `${x > 0 ? '+' : '−'}${magnitude}`;
}

/** A duration in seconds, to the hundredth. */
export function seconds(x: number): string {
  return `${x.toFixed(2)} s`;
}

/** A query in words, as the page and the results name it. */
export function describeQuery(q: UtilityQuery): string {
  const by = q.group_by.length ? ` by ${q.group_by.join(', ')}` : '';
  switch (q.aggregate) {
    case 'count':
      return `count${by}`;
    case 'mean':
      return `mean(${q.column})${by}`;
    case 'share':
      return `share of ${q.column} = ${q.value}${by}`;
  }
}
