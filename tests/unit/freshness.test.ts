// The pause before a change of settings is recomputed (freshness.ts): a choice (a role, an
// option, a box ticked) is answered after CHOICE_PAUSE_MS, typing after TYPING_PAUSE_MS, which
// waits for the next keystroke; a newer change starts the pause again.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHOICE_PAUSE_MS, Freshness, TYPING_PAUSE_MS } from '../../web/src/app/freshness';

/** The two elements Freshness marks, as plain objects (the unit tests run without a DOM). */
function element(): HTMLElement {
  const classes = new Set<string>();
  const attributes = new Map<string, string>();
  return {
    hidden: false,
    dataset: {},
    textContent: '',
    classList: { toggle: (c: string, on: boolean) => (on ? classes.add(c) : classes.delete(c)), contains: (c: string) => classes.has(c) },
    setAttribute: (k: string, v: string) => attributes.set(k, v),
    removeAttribute: (k: string) => attributes.delete(k),
  } as unknown as HTMLElement;
}

/** A Freshness whose settings are `settings.key`, with the times its recomputes started. */
function freshness(): { f: Freshness; settings: { key: string }; starts: number[] } {
  const settings = { key: 'a' };
  const starts: number[] = [];
  const f = new Freshness(
    element(),
    element(),
    () => {
      starts.push(Date.now());
      return true;
    },
    () => settings.key,
  );
  f.asked();
  return { f, settings, starts };
}

describe('the pause before a recompute', () => {
  afterEach(() => vi.useRealTimers());

  it('is short after a choice and longer after typing', () => {
    vi.useFakeTimers({ now: 0 });
    const { f, settings, starts } = freshness();
    settings.key = 'b';
    f.changed(CHOICE_PAUSE_MS);
    vi.advanceTimersByTime(CHOICE_PAUSE_MS - 1);
    expect(starts).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(starts).toEqual([CHOICE_PAUSE_MS]);

    settings.key = 'c';
    f.changed();
    vi.advanceTimersByTime(CHOICE_PAUSE_MS);
    expect(starts).toHaveLength(1);
    vi.advanceTimersByTime(TYPING_PAUSE_MS - CHOICE_PAUSE_MS);
    expect(starts).toEqual([CHOICE_PAUSE_MS, CHOICE_PAUSE_MS + TYPING_PAUSE_MS]);
    expect(CHOICE_PAUSE_MS).toBeLessThan(TYPING_PAUSE_MS);
  });

  it('starts again at each change, and a change back to the settings asked for is none', () => {
    vi.useFakeTimers({ now: 0 });
    const { f, settings, starts } = freshness();
    settings.key = 'b';
    f.changed();
    vi.advanceTimersByTime(TYPING_PAUSE_MS - 50);
    settings.key = 'c';
    f.changed(CHOICE_PAUSE_MS);
    vi.advanceTimersByTime(CHOICE_PAUSE_MS);
    expect(starts).toEqual([TYPING_PAUSE_MS - 50 + CHOICE_PAUSE_MS]);
    // The settings answered: an edit that leaves them so changes nothing.
    f.changed(CHOICE_PAUSE_MS);
    vi.advanceTimersByTime(1000);
    expect(starts).toHaveLength(1);
  });
});
