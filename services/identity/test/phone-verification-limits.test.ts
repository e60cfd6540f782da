import { describe, expect, it } from '@jest/globals';
import { createAccount, identitySuite, MINUTE, signedInAccessToken, suiteClock, uniquePhone } from './kit/index.js';

interface Answer {
  status: number;
  retryAfter: number | null;
  errorCode: string | null;
}

/** Contract §9: at most 1 request per 60 s and 10 per day per account, and 5 per hour per number. */
describe('phone verification request limits (contract §9)', () => {
  const identity = identitySuite();
  const clock = suiteClock(identity);

  async function requestCode(accessToken: string, phone: string): Promise<Answer> {
    const response = await fetch(`${identity.baseUrl}/api/auth/phone/verify/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ phone }),
    });
    const body = (await response.json()) as { errorCode: string | null };
    const retryAfter = response.headers.get('retry-after');
    return { status: response.status, retryAfter: retryAfter === null ? null : Number(retryAfter), errorCode: body.errorCode };
  }

  async function staffToken(): Promise<string> {
    return signedInAccessToken(identity, await createAccount(identity, { role: 'staff' }));
  }

  function expectLimited(answer: Answer, maxSeconds: number, minSeconds = 1): void {
    expect(answer).toMatchObject({ status: 429, errorCode: 'RATE_LIMITED' });
    expect(answer.retryAfter).toBeGreaterThanOrEqual(minSeconds);
    expect(answer.retryAfter).toBeLessThanOrEqual(maxSeconds);
  }

  it('allows one request per minute per account, whatever the number', async () => {
    const token = await staffToken();
    expect((await requestCode(token, uniquePhone())).status).toBe(200);
    expectLimited(await requestCode(token, uniquePhone()), 60);
    clock.ahead(MINUTE + 1_000);
    expect((await requestCode(token, uniquePhone())).status).toBe(200);
  });

  it('allows 10 requests a day per account', async () => {
    const token = await staffToken();
    for (let i = 0; i < 10; i += 1) {
      clock.ahead(i * 2 * MINUTE);
      expect((await requestCode(token, uniquePhone())).status).toBe(200);
    }
    clock.ahead(20 * MINUTE);
    // The first of the ten was issued 20 minutes ago (on the credentials' clock): a day after it.
    expectLimited(await requestCode(token, uniquePhone()), 24 * 60 * 60 - 20 * 60, 24 * 60 * 60 - 21 * 60);
  });

  it('allows 5 requests an hour per number, whoever asks', async () => {
    const phone = uniquePhone();
    for (let i = 0; i < 5; i += 1) expect((await requestCode(await staffToken(), phone)).status).toBe(200);
    expectLimited(await requestCode(await staffToken(), phone), 60 * 60, 59 * 60);
    expect((await requestCode(await staffToken(), uniquePhone())).status).toBe(200);
  });

  it('holds the per-account limit for parallel requests', async () => {
    const token = await staffToken();
    const answers = await Promise.all(Array.from({ length: 6 }, () => requestCode(token, uniquePhone())));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(5);
  });
});
