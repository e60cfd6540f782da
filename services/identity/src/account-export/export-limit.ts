import { ACCOUNT_EXPORTS_PER_HOUR } from '@school/contracts';

const HOUR_MS = 60 * 60_000;

/** How far back the copy times passed to exportWait must reach. */
export function exportWindowStart(now: Date): Date {
  return new Date(now.getTime() - HOUR_MS);
}

/**
 * Contract §11: at most ACCOUNT_EXPORTS_PER_HOUR copies of one account an hour. How long before one
 * more is allowed (0: now), from the times of the account's copies in the last hour.
 */
export function exportWait(madeAt: readonly Date[], now: Date): number {
  if (madeAt.length < ACCOUNT_EXPORTS_PER_HOUR) return 0;
  const times = madeAt.map((at) => at.getTime()).sort((a, b) => a - b);
  const freeAt = times[times.length - ACCOUNT_EXPORTS_PER_HOUR]! + HOUR_MS;
  return Math.max(1, freeAt - now.getTime());
}
