// The time left of a long read or audit (issue 36, item 7), from the rate so far: work done
// `done` of `total` units in `elapsed` seconds since the phase began at `from` units.

/** "about 12 s left", "about 3 min left", "less than a second left"; "estimating the time
 * left" until a unit is done past `from` and a quarter of a second has passed. */
export function timeLeft(done: number, total: number, from: number, elapsed: number): string {
  if (done >= total) return 'finishing';
  if (done <= from || elapsed < 0.25) return 'estimating the time left';
  const left = (elapsed * (total - done)) / (done - from);
  if (left < 1) return 'less than a second left';
  if (left < 90) return `about ${Math.round(left)} s left`;
  return `about ${Math.round(left / 60)} min left`;
}

/**
 * The estimate of a phase, timed from when the phase before it was last heard of (or from
 * `reset`): a phase's first message comes after its first work (the rows of a kept table
 * come after their sort), so its units count from 0 at that time.
 */
export class Estimate {
  private phase: string | null = null;
  private started = 0;
  private lastSeen: number | null = null;

  /** The time left of `phase` at `done` of `total` units, `now` in milliseconds. */
  update(phase: string, done: number, total: number, now: number): string {
    if (phase !== this.phase) {
      this.phase = phase;
      this.started = this.lastSeen ?? now;
    }
    this.lastSeen = now;
    return timeLeft(done, total, 0, (now - this.started) / 1000);
  }

  /** A new pass starts at `now`. */
  reset(now: number): void {
    this.phase = null;
    this.lastSeen = now;
  }
}
