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

/** The estimate of a phase that counts its units from when it was first seen. */
export class Estimate {
  private phase: string | null = null;
  private started = 0;
  private from = 0;

  /** The time left of `phase` at `done` of `total` units, `now` in milliseconds. */
  update(phase: string, done: number, total: number, now: number): string {
    if (phase !== this.phase) {
      this.phase = phase;
      this.started = now;
      this.from = done;
    }
    return timeLeft(done, total, this.from, (now - this.started) / 1000);
  }

  /** Forgets the phase (a new pass starts). */
  reset(): void {
    this.phase = null;
  }
}
