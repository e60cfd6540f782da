/** Contract §9: failed logins in a row that are free; the next login waits out a back-off. */
export const FREE_FAILURES = 5;

/** The back-off never grows past 15 minutes. */
export const MAX_BACKOFF_MS = 15 * 60_000;

export interface FailureCount {
  failures: number;
  blockedUntil: Date | null;
}

export type AttemptDecision = { admitted: false; retryAfterMs: number } | { admitted: true; counted: FailureCount };

/**
 * A login attempt against the email's count: refused while a back-off runs; otherwise admitted and
 * counted as a failure up front (a success clears it afterwards), so parallel guesses cannot all
 * slip in before the first of them is recorded. The fifth failure starts a back-off of `baseMs`,
 * each further one doubles it, up to MAX_BACKOFF_MS.
 */
export function decideAttempt(current: FailureCount, now: Date, baseMs: number): AttemptDecision {
  if (current.blockedUntil && current.blockedUntil > now) {
    return { admitted: false, retryAfterMs: current.blockedUntil.getTime() - now.getTime() };
  }
  const failures = current.failures + 1;
  if (failures < FREE_FAILURES) return { admitted: true, counted: { failures, blockedUntil: current.blockedUntil } };
  const backoffMs = Math.min(baseMs * 2 ** Math.min(failures - FREE_FAILURES, 30), MAX_BACKOFF_MS);
  return { admitted: true, counted: { failures, blockedUntil: new Date(now.getTime() + backoffMs) } };
}
