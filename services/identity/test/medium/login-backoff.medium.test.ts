import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { loginBackoffEnv } from '../../src/login-backoff/login-backoff.config.js';
import { LoginBackoffRepository } from '../../src/login-backoff/login-backoff.repository.js';
import { LoginBackoffService } from '../../src/login-backoff/login-backoff.service.js';
import { identityMedium, type IdentityMedium } from './kit.js';

const RIGHT = { userId: 1 };

/**
 * Contract §9's back-off per email against the use case: the password check is a stand-in answering
 * right (what it found) or wrong (undefined) after yielding, as argon2id's worker does. Its wire
 * (429 with Retry-After, both surfaces, unknown emails, resets, a full hash queue) is login-backoff.test.ts.
 */
describe('login back-off per email: the use case over its repository (medium)', () => {
  let world: IdentityMedium;
  let backoff: LoginBackoffService;

  beforeAll(async () => {
    world = await identityMedium('identity_backoff_medium', [LoginBackoffRepository, LoginBackoffService], z.object(loginBackoffEnv).parse({}));
    backoff = world.get(LoginBackoffService);
  });

  afterAll(() => world?.close());

  const uniqueEmail = (label: string) => `${label}-${randomUUID()}@example.com`;
  const checked = async <T>(answer: T): Promise<T> => {
    await new Promise(setImmediate);
    return answer;
  };
  const right = (email: string) => backoff.attempt(email, () => checked(RIGHT));
  const wrong = (email: string) => backoff.attempt(email, () => checked(undefined));
  /** What an attempt came to: `checked` (right or wrong, its password checked) or the refusal's code and Retry-After. */
  const outcome = (attempt: Promise<unknown>) =>
    attempt.then(
      (found) => (found === undefined ? 'wrong' : 'right'),
      (error: { code?: string; headers?: Record<string, string> }) => ({ code: error.code, retryAfter: Number(error.headers?.['retry-after']) }),
    );
  async function failTimes(email: string, times: number): Promise<void> {
    for (let i = 0; i < times; i += 1) expect(await outcome(wrong(email))).toBe('wrong');
  }
  const emailKey = (email: string) => createHash('sha256').update(email.toLowerCase()).digest('hex');
  const countOf = (email: string) => world.prisma.loginFailure.findUnique({ where: { emailKey: emailKey(email) } });
  /** Ends the running back-off as if its time had passed. */
  const expireBackoff = (email: string) => world.prisma.loginFailure.update({ where: { emailKey: emailKey(email) }, data: { blockedUntil: new Date(Date.now() - 1_000) } });
  const expectBackoff = async (attempt: Promise<unknown>, maxSeconds: number, minSeconds: number) => {
    const refused = await outcome(attempt);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED' });
    const { retryAfter } = refused as { retryAfter: number };
    expect(retryAfter).toBeGreaterThanOrEqual(minSeconds);
    expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  };

  it('lets 4 failures pass; the fifth starts a back-off of about a minute that refuses the right password unchecked, and only that email', async () => {
    const email = uniqueEmail('five');
    const other = uniqueEmail('other');
    await failTimes(email, 4);
    expect(await outcome(right(other))).toBe('right');
    await failTimes(email, 1);
    let checks = 0;
    await expectBackoff(
      backoff.attempt(email, () => {
        checks += 1;
        return checked(RIGHT);
      }),
      60,
      50,
    );
    expect(checks).toBe(0);
    await failTimes(other, 4);
    expect(await outcome(right(other))).toBe('right');
  });

  it('counts the email as login normalises it', async () => {
    const email = uniqueEmail('case');
    await failTimes(email, 4);
    expect(await outcome(wrong(` ${email.toUpperCase()} `))).toBe('wrong');
    await expectBackoff(right(email), 60, 50);
  });

  it('clears the count on a success, and on a password reset (succeeded)', async () => {
    const email = uniqueEmail('clears');
    await failTimes(email, 4);
    expect(await outcome(right(email))).toBe('right');
    await failTimes(email, 4);
    expect(await outcome(right(email))).toBe('right');
    await failTimes(email, 5);
    await backoff.succeeded(email);
    expect(await outcome(right(email))).toBe('right');
  });

  it('keeps counting after a success that does not end the login (a password step awaiting its second step)', async () => {
    const email = uniqueEmail('two-step');
    await failTimes(email, 4);
    expect(
      await backoff.attempt(
        email,
        () => checked(RIGHT),
        undefined,
        () => false,
      ),
    ).toBe(RIGHT);
    await failTimes(email, 1);
    await expectBackoff(right(email), 60, 50);
  });

  it('doubles the back-off with each further failure, up to 15 minutes', async () => {
    const email = uniqueEmail('doubling');
    await failTimes(email, 5);
    await expectBackoff(right(email), 60, 50);
    for (const seconds of [120, 240, 480, 900, 900]) {
      await expireBackoff(email);
      expect(await outcome(wrong(email))).toBe('wrong');
      await expectBackoff(right(email), seconds, seconds - 10);
    }
  });

  it('counts nothing for an attempt refused during a back-off, nor for a check that failed to run (503)', async () => {
    const email = uniqueEmail('refused');
    await failTimes(email, 4);
    await expect(backoff.attempt(email, () => Promise.reject(new Error('hash queue full')))).rejects.toThrow('hash queue full');
    expect(await countOf(email)).toMatchObject({ failures: 4 });
    await failTimes(email, 1);
    for (let i = 0; i < 3; i += 1) expect(await outcome(wrong(email))).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await countOf(email)).toMatchObject({ failures: 5 });
  });

  it('runs onFailure with each failure it counts, saying whether it starts a back-off', async () => {
    const email = uniqueEmail('on-failure');
    const started: boolean[] = [];
    for (let i = 0; i < 6; i += 1) {
      if (i === 5) await expireBackoff(email);
      await backoff.attempt(
        email,
        () => checked(undefined),
        async (_tx, backoffStarted) => void started.push(backoffStarted),
      );
    }
    expect(started).toEqual([false, false, false, false, true, true]);
  });

  describe('attempts arriving together', () => {
    it('checks no more than five parallel guesses: the rest are refused', async () => {
      const email = uniqueEmail('parallel');
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => outcome(wrong(email))));
      expect(outcomes.filter((one) => one === 'wrong')).toHaveLength(5);
      expect(outcomes.filter((one) => typeof one === 'object' && one.code === 'RATE_LIMITED')).toHaveLength(15);
      expect(await outcome(right(email))).toMatchObject({ code: 'RATE_LIMITED' });
    });

    it('answers each as its password deserves when successes are among them', async () => {
      // A success deletes the email's count while a failure is taking its lock: the lock takes a new row.
      const email = uniqueEmail('mixed');
      const answers = [true, false, true, true, true, true, true, true];
      for (let round = 0; round < 15; round += 1) {
        const outcomes = await Promise.all(answers.map((isRight) => outcome(isRight ? right(email) : wrong(email))));
        expect(outcomes).toEqual(answers.map((isRight) => (isRight ? 'right' : 'wrong')));
      }
    });

    it('refuses none of 40 right passwords (but with 503 when kept waiting past its turn) and counts none of them', async () => {
      const email = uniqueEmail('forty');
      await failTimes(email, 4);
      const outcomes = await Promise.all(Array.from({ length: 40 }, () => outcome(right(email))));
      for (const one of outcomes) if (one !== 'right') expect(one).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfter: 1 });
      expect(outcomes.filter((one) => one === 'right').length).toBeGreaterThan(0);
      await failTimes(email, 4);
      expect(await outcome(right(email))).toBe('right');
    });
  });
});
