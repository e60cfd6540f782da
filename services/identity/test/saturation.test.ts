import { describe, expect, it } from '@jest/globals';
import { type TransactionLimits, UnitOfWork } from '@school/service';
import { createAccount, identitySuite, signedInAccessToken } from './kit/index.js';

/**
 * Contract §3 and §9: a saturated database pool is a dependency that cannot take the work, 503
 * SERVICE_UNAVAILABLE with Retry-After, never 500. Once the accounts are arranged, a 1 ms wait for
 * a pooled connection (what DATABASE_TRANSACTION_MAX_WAIT_MS sets) makes 50 parallel writes
 * saturate the pool on any machine.
 */
describe('a saturated connection pool answers 503, never 500', () => {
  const identity = identitySuite();

  it('answers 50 parallel PATCHes of one user only with 200, 409 or 503 (with Retry-After)', async () => {
    const admin = await createAccount(identity, { role: 'admin' });
    const user = await createAccount(identity, { role: 'customer' });
    const token = await signedInAccessToken(identity, admin);
    const limits: TransactionLimits = { maxWaitMs: 1, timeoutMs: 5_000 };
    Object.assign(identity.app.get(UnitOfWork, { strict: false }), { limits });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${identity.baseUrl}/api/users/${user.publicId}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ name: `Name ${i}` }),
        }).then(async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { errorCode: string | null } })),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => ![200, 409, 503].includes(status))).toEqual([]);
    for (const answer of answers.filter((each) => each.status === 503)) {
      expect(answer.body.errorCode).toBe('SERVICE_UNAVAILABLE');
      expect(answer.retryAfter).toMatch(/^[1-9]\d*$/);
    }
  });
});
