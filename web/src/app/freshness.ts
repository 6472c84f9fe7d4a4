// Keeps the results in step with the settings of step 2: the moment a role or a setting
// changes, the results shown are marked out of date (a class, aria-busy and a short text);
// after a pause (TYPING_PAUSE_MS for a setting typed, CHOICE_PAUSE_MS for a choice: a role, an
// option, a box ticked) the audit is recomputed from the table the worker keeps. An
// answer is shown only if no setting changed since its request was made. The line under the
// results says how long the last audit took and whether the file was read again. An edit that
// leaves the settings as they were asked for (the "change" a field fires when it loses focus
// after its "input" events were already answered) changes nothing.

import { count, seconds } from '../ui/format';
import type { TableRead } from '../shared/protocol';

/** How long the settings must stay still before a recompute starts: a setting typed waits for
 * the next keystroke. */
export const TYPING_PAUSE_MS = 250;
/** The pause after a choice (a role, an option, a box ticked): it is whole at once (a role
 * taken from another column changes both in the same event), so the recompute starts almost at
 * once. */
export const CHOICE_PAUSE_MS = 50;

/** The line while a recompute is asked for or under way. */
const STALE = 'Out of date: the settings changed; recomputing…';

/** What the results shown were computed for: fresh, out of date, or not computable. */
type State = 'fresh' | 'stale' | 'invalid';

/** How the last audit was read, in one sentence. */
function readText(read: TableRead, recomputed: boolean): string {
  const took = `${recomputed ? 'Recomputed' : 'Audited'} in ${seconds(read.seconds)}`;
  const reads = `the file was read ${read.fileReads === 1 ? 'once' : `${count(read.fileReads)} times`}`;
  if (!read.kept)
    return `${took} by reading the file again: its table is not kept in memory (${read.why ?? 'unknown reason'}), so each change reads it again; ${reads}.`;
  if (recomputed) return `${took} from the table kept in memory; the file was not read again (${reads}).`;
  return `${took}; ${reads}${read.readers > 1 ? ` by ${read.readers} workers in parallel` : ''} and its table is kept in memory, so each change is answered without reading it again.`;
}

/** How the file was read for the profile, in one sentence. */
export function profileReadText(read: TableRead): string {
  const took = `Read in ${seconds(read.seconds)}`;
  if (!read.kept) return `${took} on one thread: ${read.why ?? 'unknown reason'}. The audit and each change of settings read the file again.`;
  const by = read.readers > 1 ? ` by ${read.readers} workers in parallel` : '';
  return `${took}${by}; its table is kept in memory, so the audit and every change of settings are answered without reading the file again.`;
}

export class Freshness {
  /** Bumped on every change of the settings. */
  private version = 0;
  /** The version the results on screen (or on their way) were asked for. */
  private askedFor = -1;
  /** The settings (as `key` gives them) the results on screen or on their way were asked for. */
  private askedKey: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  /**
   * `line`: the status line above the results; `results`: the results panel; `recompute`:
   * starts a recompute with the current settings, false when they cannot be audited; `key`:
   * the current settings as a string, equal for equal settings, null when they cannot be audited.
   */
  constructor(
    private readonly line: HTMLElement,
    private readonly results: HTMLElement,
    private readonly recompute: () => boolean,
    private readonly key: () => string | null,
  ) {}

  /** A run with the current settings starts: its answer will be current unless they change. */
  asked(): void {
    this.stop();
    this.askedFor = this.version;
    this.askedKey = this.key();
  }

  /** Whether results asked for at the last `asked` still match the settings. */
  get current(): boolean {
    return this.askedFor === this.version;
  }

  /** A role or a setting changed: the results shown are out of date; recompute after `pause` ms
   * without another change. */
  changed(pause: number = TYPING_PAUSE_MS): void {
    if (this.timer === null && this.askedKey !== null && this.key() === this.askedKey) return;
    this.version += 1;
    if (this.results.hidden) return; // nothing shown to keep in step
    this.mark('stale', STALE);
    this.stop();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.again();
    }, pause);
  }

  /** Recomputes with the current settings now. */
  again(): void {
    this.stop();
    if (this.recompute()) this.asked();
    else {
      this.askedKey = null;
      this.mark('invalid', 'Out of date: these settings cannot be audited (see step 2).');
    }
  }

  /** Results just shown, read as `read`: say how; `recomputed`: a change answered. */
  shown(read: TableRead, recomputed: boolean): void {
    this.line.dataset.fileReads = String(read.fileReads);
    this.line.dataset.kept = String(read.kept);
    this.mark('fresh', readText(read, recomputed));
  }

  /** How far the recompute under way is (`text`), while the results are out of date. */
  progress(text: string): void {
    if (this.line.dataset.state === 'stale') this.line.textContent = `${STALE} ${text}`;
  }

  /** A recompute failed (the error is shown elsewhere): the results stay out of date. */
  failed(): void {
    this.askedKey = null; // any edit, even one back to these settings, tries again
    this.mark('invalid', 'Out of date: the audit with these settings failed (see the message above).');
  }

  /** No results: nothing to keep in step. */
  clear(): void {
    this.stop();
    this.askedKey = null;
    this.line.hidden = true;
    this.line.textContent = '';
    this.results.classList.remove('stale');
    this.results.removeAttribute('aria-busy');
  }

  private stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private mark(state: State, text: string): void {
    this.line.hidden = false;
    this.line.dataset.state = state;
    this.line.textContent = text;
    this.results.classList.toggle('stale', state !== 'fresh');
    if (state === 'stale') this.results.setAttribute('aria-busy', 'true');
    else this.results.removeAttribute('aria-busy');
  }
}
