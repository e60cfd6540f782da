import { ACCOUNT_EXPORTS_PER_HOUR } from '@school/contracts';
import { exportWait, exportWindowStart } from './export-limit.js';

const now = new Date('2026-12-10T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

describe('copies of one account per hour (contract §11)', () => {
  it('allows five in the hour and refuses the sixth until the oldest of the five is an hour old', () => {
    expect(ACCOUNT_EXPORTS_PER_HOUR).toBe(5);
    expect(exportWait([], now)).toBe(0);
    expect(exportWait([50, 40, 30, 20].map(minutesAgo), now)).toBe(0);
    expect(exportWait([50, 40, 30, 20, 10].map(minutesAgo), now)).toBe(10 * 60_000);
    expect(exportWait([10, 20, 30, 40, 50, 55].map(minutesAgo), now)).toBe(10 * 60_000);
  });

  it('never answers a zero wait when refusing', () => {
    const atTheEdge = [60, 1, 1, 1, 1].map(minutesAgo);
    expect(exportWait(atTheEdge, now)).toBe(1);
  });

  it('looks back exactly one hour', () => {
    expect(exportWindowStart(now)).toEqual(minutesAgo(60));
  });
});
