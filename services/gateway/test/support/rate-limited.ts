import { json } from './gateway.js';

/** Contract §9: a 429 in the envelope, with a Retry-After of 1 to `maxRetryAfter` seconds. */
export async function expectRateLimited(response: Response, maxRetryAfter: number): Promise<void> {
  expect(response.status).toBe(429);
  expect(await json(response)).toEqual({ message: 'Too many requests, please try again later', data: null, errorCode: 'RATE_LIMITED' });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
}
