// The page on a big export (issue 36, item 8): one run of the page on BENCH_BIG_FILE (a
// generated hospital table, 2 GB by `scripts/bench.sh --browser-big`): the file chosen, its
// read and profile, the hospital roles (5 QIs, 2 sensitive columns), "Run audit", the report.
// Prints and writes to bench-out/big-bench.json the page's times, how it read the file (kept
// or streamed, and why) and the peak memory of the browser during the read and during the
// audit: the sum of the proportional set sizes (Pss, /proc/PID/smaps_rollup) of every process
// this Playwright worker started, sampled every 200 ms, and of the largest one (the page's
// renderer, where its workers run). The page's progress line is printed every 30 s. Not a test.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type Page } from '@playwright/test';
import { openApp } from '../e2e/helpers';
import { OUT } from './common';

const FILE = process.env.BENCH_BIG_FILE ?? '';
const QIS = ['age', 'sex', 'zip3', 'admit_date', 'ward'];
const SAS = ['diagnosis', 'discharge'];

/** The kilobytes of `field` in a /proc file of `pid` (0 when it is gone). */
function kb(pid: number, file: string, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The processes under `root` (the browser and its renderer, GPU and utility processes). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

/** The peak of the browser's memory in MB: of the sum, and of its largest process (the page's
 * renderer, where the page's workers run too). */
interface Peak {
  peakMb: number;
  peakProcessMb: number;
}

/** Samples the browser's memory until stopped; `lap()` gives the peak since the last lap. */
function sampler(): { lap: () => Peak; stop: () => Peak } {
  let peak = 0;
  let peakProcess = 0;
  const sample = () => {
    const sizes = descendants(process.pid).map((pid) => kb(pid, 'smaps_rollup', 'Pss'));
    peak = Math.max(
      peak,
      sizes.reduce((s, x) => s + x, 0),
    );
    peakProcess = Math.max(peakProcess, ...sizes, 0);
  };
  const timer = setInterval(sample, 200);
  const lap = () => {
    sample();
    const at = { peakMb: Math.round(peak / 1024), peakProcessMb: Math.round(peakProcess / 1024) };
    peak = 0;
    peakProcess = 0;
    return at;
  };
  return {
    lap,
    stop: () => {
      clearInterval(timer);
      return lap();
    },
  };
}

/**
 * Waits until the page shows `selector` or an error message, printing the page's progress line
 * every 30 s; the seconds taken and the error.
 */
async function until(page: Page, selector: string): Promise<{ seconds: number; error: string | null }> {
  const started = Date.now();
  const error = page.locator('#messages .message-error').first();
  const progress = setInterval(() => {
    page
      .locator('#progress-text')
      .textContent()
      .then(
        (text) => console.log(`${Math.round((Date.now() - started) / 1000)} s: ${text?.trim() ?? ''}`),
        () => undefined,
      );
  }, 30_000);
  await page.locator(`${selector}, #messages .message-error`).first().waitFor({ timeout: 0 });
  clearInterval(progress);
  const seconds = (Date.now() - started) / 1000;
  return { seconds, error: (await error.count()) ? ((await error.textContent()) ?? '').trim() : null };
}

test('the page on a big export', async ({ page }) => {
  if (!FILE) throw new Error('BENCH_BIG_FILE is not set (scripts/bench.sh --browser-big sets it)');
  const bytes = statSync(FILE).size;
  const memory = sampler();
  const crashed: string[] = [];
  page.on('crash', () => crashed.push('the page crashed'));
  await openApp(page);
  await page.locator('#file-input').setInputFiles(FILE);
  const read = await until(page, '#run-audit:visible');
  const readPeak = memory.lap();
  const readNote =
    (
      await page
        .locator('#read-note')
        .textContent()
        .catch(() => null)
    )?.trim() ?? null;
  let audit: { seconds: number; error: string | null } | null = null;
  let freshness: string | null = null;
  if (!read.error) {
    for (const select of await page.locator('select[data-column]').all()) {
      const column = (await select.getAttribute('data-column')) ?? '';
      if (QIS.includes(column)) await select.selectOption('quasi_identifier');
      else if (SAS.includes(column)) await select.selectOption('sensitive');
      else if (['quasi_identifier', 'sensitive'].includes(await select.inputValue())) await select.selectOption('insensitive');
    }
    await page.locator('#run-audit').click();
    audit = await until(page, '#results-freshness[data-state="fresh"]:visible');
    freshness = (await page.locator('#results-freshness').textContent())?.trim() ?? null;
  }
  const auditPeak = memory.stop();
  const result = {
    file: FILE,
    gb: Number((bytes / 1e9).toFixed(2)),
    readSeconds: read.seconds,
    readError: read.error,
    readNote,
    readPeak,
    auditSeconds: audit?.seconds ?? null,
    auditError: audit?.error ?? null,
    freshness,
    auditPeak,
    crashed,
  };
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(join(OUT, 'big-bench.json'), `${JSON.stringify(result, null, 2)}\n`);
});
