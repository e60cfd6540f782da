import { beforeAll, describe, expect, it } from '@jest/globals';
import { BACKLOG_PER_CLIENT } from '@school/async';
import { EVENT_TYPES } from '@school/contracts';
import { waitFor } from '@school/testing';
import { hashingConcurrency, PasswordHasher } from '../src/passwords/password-hasher.js';
import { createAccount, identitySuite, lastEventOf, NEW_PASSWORD, PASSWORD, serveMessageRequests, signedInAccessToken, tokenOf, uniqueEmail } from './kit/index.js';

interface RawAnswer {
  status: number;
  retryAfter: string | null;
  body: { message: string; data: unknown; errorCode: string | null };
}

const BUSY = { message: expect.any(String), data: null, errorCode: 'SERVICE_UNAVAILABLE' };

/** A bounded argon2id queue (contract §3: a dependency that cannot take the work is 503 with Retry-After). */
describe('password hashing under load: a full queue answers 503 SERVICE_UNAVAILABLE with Retry-After', () => {
  const identity = identitySuite({ PASSWORD_HASH_MAX_WAITING: '1' });
  let hasher: PasswordHasher;

  beforeAll(async () => {
    hasher = identity.app.get(PasswordHasher, { strict: false });
  });

  async function post(path: string, body: unknown, accessToken?: string): Promise<RawAnswer> {
    const response = await fetch(`${identity.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(accessToken && { authorization: `Bearer ${accessToken}` }) },
      body: JSON.stringify(body),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as RawAnswer['body'] };
  }

  /** Every slot taken by jobs that end when `release` is called; the line stays open. */
  function holdSlots(): { release: () => Promise<void> } {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const jobs = Array.from({ length: hasher.queue.concurrency }, () => hasher.queue.run(() => held));
    return {
      release: async () => {
        release();
        await Promise.all(jobs);
      },
    };
  }

  /** Every slot and the waiting room taken by jobs that end when the returned function is called. */
  function fillQueue(): () => Promise<void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const jobs = Array.from({ length: hasher.queue.concurrency + hasher.queue.maxWaiting }, () => hasher.queue.run(() => held));
    return async () => {
      release();
      await Promise.all(jobs);
    };
  }

  it('takes PASSWORD_HASH_MAX_WAITING and one slot per core', () => {
    expect(hasher.queue).toMatchObject({ concurrency: hashingConcurrency(), maxWaiting: 1 });
  });

  it('answers every route that hashes or verifies with 503 and Retry-After while full, and normally after', async () => {
    const staff = await createAccount(identity, { role: 'staff' });
    const customer = await createAccount(identity);
    const accessToken = await signedInAccessToken(identity, staff);
    expect((await post('/api/mobile/auth/password/forgot', { email: customer.email })).status).toBe(200);
    await serveMessageRequests(identity);
    const event = await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, customer.publicId);
    if (event.delivery.channel !== 'email') throw new Error('expected an email delivery');
    const resetToken = tokenOf(event.delivery.resetUrl);

    const calls = {
      adminLogin: () => post('/api/auth/login/email', { email: staff.email, password: PASSWORD }),
      mobileLogin: () => post('/api/mobile/auth/login/email', { email: customer.email, password: PASSWORD }),
      unknownEmailLogin: () => post('/api/auth/login/email', { email: uniqueEmail('nobody'), password: PASSWORD }),
      setPassword: () => post('/api/auth/password/set', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, accessToken),
      reset: () => post('/api/mobile/auth/password/reset', { token: resetToken, password: NEW_PASSWORD }),
    };

    const release = fillQueue();
    try {
      for (const [name, call] of Object.entries(calls)) {
        const answer = await call();
        expect({ name, ...answer }).toEqual({ name, status: 503, retryAfter: '1', body: BUSY });
      }
    } finally {
      await release();
    }

    expect(await afterBusy(calls.adminLogin)).toBe(200);
    expect(await afterBusy(calls.mobileLogin)).toBe(200);
    expect(await afterBusy(calls.unknownEmailLogin)).toBe(401);
    expect(await afterBusy(calls.setPassword)).toBe(200);
    // The refused reset left its link live.
    expect(await afterBusy(calls.reset)).toBe(200);
  });

  /**
   * The status of `call` once the queue is free: a loaded machine may still answer a 503 with
   * Retry-After, as the contract allows a saturated service (once in a quiet fresh-clone run here),
   * which is tried again after it, up to three times; a queue left full answers 503 every time.
   */
  async function afterBusy(call: () => Promise<RawAnswer>): Promise<number> {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await call();
      if (answer.status !== 503 || attempt === 3) return answer.status;
      await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter ?? '1') * 1000));
    }
  }

  it("refuses the part of a burst of logins beyond the line and its client's backlog with 503, and serves the rest normally, never a 500", async () => {
    // The slots held, so nothing of the burst ends while it arrives: the line's one place and the
    // client's backlog take what they can, the rest is refused, whatever the machine's speed.
    const held = holdSlots();
    let answered = 0;
    const queued = 1 + BACKLOG_PER_CLIENT;
    const burst = Array.from({ length: 30 }, () => post('/api/auth/login/email', { email: uniqueEmail('burst'), password: PASSWORD }).finally(() => (answered += 1)));
    try {
      await waitFor(() => answered === 30 - queued && hasher.queue.load.waiting + hasher.queue.load.backlogged === queued, { what: 'the burst queued or refused' });
    } finally {
      await held.release();
    }
    const answers = await Promise.all(burst);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(refused).toHaveLength(30 - queued);
    for (const answer of refused) expect(answer).toEqual({ status: 503, retryAfter: '1', body: BUSY });
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(queued);
  });
});
