import { decideAttempt, FREE_FAILURES, MAX_BACKOFF_MS } from './login-backoff-rules.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const BASE = 60_000;

describe('decideAttempt (contract §9 login back-off)', () => {
  it('admits and counts the first failures without a back-off', () => {
    expect(decideAttempt({ failures: 0, blockedUntil: null }, NOW, BASE)).toEqual({ admitted: true, counted: { failures: 1, blockedUntil: null } });
  });

  it.each([
    [FREE_FAILURES - 1, BASE],
    [FREE_FAILURES, 2 * BASE],
    [FREE_FAILURES + 1, 4 * BASE],
    [FREE_FAILURES + 3, MAX_BACKOFF_MS],
    [FREE_FAILURES + 40, MAX_BACKOFF_MS],
  ])('after %i failures the next one starts a back-off of %i ms', (failures, backoffMs) => {
    const decision = decideAttempt({ failures, blockedUntil: null }, NOW, BASE);
    expect(decision).toEqual({ admitted: true, counted: { failures: failures + 1, blockedUntil: new Date(NOW.getTime() + backoffMs) } });
  });

  it('refuses while a back-off runs, telling how long is left, and does not count the refusal', () => {
    expect(decideAttempt({ failures: 5, blockedUntil: new Date(NOW.getTime() + 30_000) }, NOW, BASE)).toEqual({ admitted: false, retryAfterMs: 30_000 });
  });

  it('admits again once the back-off is over', () => {
    const decision = decideAttempt({ failures: 5, blockedUntil: new Date(NOW.getTime() - 1) }, NOW, BASE);
    expect(decision.admitted).toBe(true);
  });
});
