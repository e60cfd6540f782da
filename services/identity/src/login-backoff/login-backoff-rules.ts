/** Contract §9: failed logins in a row that are free; the next login waits out a back-off. */
export const FREE_FAILURES = 5;

/** The back-off never grows past 15 minutes. */
export const MAX_BACKOFF_MS = 15 * 60_000;

export interface FailureCount {
  failures: number;
  blockedUntil: Date | null;
}

/**
 * Admitted: the login's password may be checked, while fewer than `checksAllowed` checks of the
 * email are in progress (the failures left before a back-off, at least one); the others wait for
 * them to end. So parallel guesses cannot all be checked before the first failures are recorded,
 * while logins with the right password only wait their turn, never a back-off.
 */
export type AttemptDecision = { admitted: false; retryAfterMs: number } | { admitted: true; checksAllowed: number };

/** A login attempt against the email's count: refused (429) while a back-off runs; it counts as nothing then. */
export function decideAttempt(current: FailureCount, now: Date): AttemptDecision {
  if (current.blockedUntil && current.blockedUntil > now) {
    return { admitted: false, retryAfterMs: current.blockedUntil.getTime() - now.getTime() };
  }
  return { admitted: true, checksAllowed: Math.max(1, FREE_FAILURES - current.failures) };
}

/**
 * The count after a failure (a password checked and wrong, or an unknown email): the fifth in a row
 * starts a back-off of `baseMs`, each further one doubles it, up to MAX_BACKOFF_MS.
 */
export function countFailure(current: FailureCount, now: Date, baseMs: number): FailureCount {
  const failures = current.failures + 1;
  if (failures < FREE_FAILURES) return { failures, blockedUntil: current.blockedUntil };
  const backoffMs = Math.min(baseMs * 2 ** Math.min(failures - FREE_FAILURES, 30), MAX_BACKOFF_MS);
  return { failures, blockedUntil: new Date(now.getTime() + backoffMs) };
}
