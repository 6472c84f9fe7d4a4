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
  it('times each phase from the end of the one before, its units from 0', () => {
    const e = new Estimate();
    e.reset(0);
    expect(e.update('rows', 25, 100, 1000)).toBe('about 3 s left');
    expect(e.update('rows', 50, 100, 2000)).toBe('about 2 s left');
    expect(e.update('measures', 0, 6, 2000)).toBe('estimating the time left');
    expect(e.update('measures', 3, 6, 5000)).toBe('about 3 s left');
  });
});
