const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Contract §9: phone verification requests per account (1 a minute, 10 a day) and per number (5 an hour). */
export const PHONE_REQUEST_LIMITS = {
  accountGapMs: MINUTE_MS,
  accountPerDay: 10,
  numberPerHour: 5,
} as const;

/** How far back the request times passed to phoneRequestWait must reach. */
export function accountWindowStart(now: Date): Date {
  return new Date(now.getTime() - DAY_MS);
}

export function numberWindowStart(now: Date): Date {
  return new Date(now.getTime() - HOUR_MS);
}

/**
 * How long the caller must wait before one more request is allowed (0: allowed now), from the
 * times of the account's requests in the last day and of the number's in the last hour.
 */
export function phoneRequestWait(accountRequests: readonly Date[], numberRequests: readonly Date[], now: Date): number {
  const account = accountRequests.map((at) => at.getTime()).sort((a, b) => a - b);
  const number = numberRequests.map((at) => at.getTime()).sort((a, b) => a - b);
  const freeAt = [
    account.length > 0 ? account[account.length - 1]! + PHONE_REQUEST_LIMITS.accountGapMs : 0,
    account.length >= PHONE_REQUEST_LIMITS.accountPerDay ? account[account.length - PHONE_REQUEST_LIMITS.accountPerDay]! + DAY_MS : 0,
    number.length >= PHONE_REQUEST_LIMITS.numberPerHour ? number[number.length - PHONE_REQUEST_LIMITS.numberPerHour]! + HOUR_MS : 0,
  ];
  return Math.max(0, ...freeAt.map((at) => at - now.getTime()));
}
