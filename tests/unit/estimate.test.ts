import { describe, expect, it } from 'vitest';
import { Estimate, timeLeft } from '../../web/src/ui/estimate';

describe('timeLeft', () => {
  it('extrapolates the rate so far', () => {
    expect(timeLeft(25, 100, 0, 4)).toBe('about 12 s left');
    expect(timeLeft(10, 100, 0, 20)).toBe('about 3 min left');
    expect(timeLeft(99, 100, 0, 10)).toBe('less than a second left');
  });
  it('waits for work done before estimating', () => {
    expect(timeLeft(0, 100, 0, 5)).toBe('estimating the time left');
    expect(timeLeft(50, 100, 50, 5)).toBe('estimating the time left');
    expect(timeLeft(10, 100, 0, 0.1)).toBe('estimating the time left');
    expect(timeLeft(100, 100, 0, 5)).toBe('finishing');
  });
});

describe('Estimate', () => {
  it('times each phase from its first message', () => {
    const e = new Estimate();
    expect(e.update('rows', 0, 100, 1000)).toBe('estimating the time left');
    expect(e.update('rows', 50, 100, 3000)).toBe('about 2 s left');
    expect(e.update('measures', 1, 6, 9000)).toBe('estimating the time left');
    expect(e.update('measures', 3, 6, 10_000)).toBe('about 2 s left');
  });
});
