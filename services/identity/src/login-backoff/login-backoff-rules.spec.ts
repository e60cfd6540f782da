import { countFailure, decideAttempt, FREE_FAILURES, MAX_BACKOFF_MS } from './login-backoff-rules.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const BASE = 60_000;

describe('decideAttempt (contract §9 login back-off)', () => {
  it('admits as many checks at once as failures are left before a back-off, and at least one', () => {
    expect(decideAttempt({ failures: 0, blockedUntil: null }, NOW)).toEqual({ admitted: true, checksAllowed: FREE_FAILURES });
    expect(decideAttempt({ failures: FREE_FAILURES - 1, blockedUntil: null }, NOW)).toEqual({ admitted: true, checksAllowed: 1 });
    expect(decideAttempt({ failures: FREE_FAILURES + 3, blockedUntil: new Date(NOW.getTime() - 1) }, NOW)).toEqual({ admitted: true, checksAllowed: 1 });
  });

  it('refuses while a back-off runs, telling how long is left', () => {
    expect(decideAttempt({ failures: 5, blockedUntil: new Date(NOW.getTime() + 30_000) }, NOW)).toEqual({ admitted: false, retryAfterMs: 30_000 });
  });
});

describe('countFailure (contract §9 login back-off)', () => {
  it('counts the first failures without a back-off', () => {
    expect(countFailure({ failures: 0, blockedUntil: null }, NOW, BASE)).toEqual({ failures: 1, blockedUntil: null });
  });

  it.each([
    [FREE_FAILURES - 1, BASE],
    [FREE_FAILURES, 2 * BASE],
    [FREE_FAILURES + 1, 4 * BASE],
    [FREE_FAILURES + 3, MAX_BACKOFF_MS],
    [FREE_FAILURES + 40, MAX_BACKOFF_MS],
  ])('after %i failures the next one starts a back-off of %i ms', (failures, backoffMs) => {
    expect(countFailure({ failures, blockedUntil: null }, NOW, BASE)).toEqual({ failures: failures + 1, blockedUntil: new Date(NOW.getTime() + backoffMs) });
  });
});
