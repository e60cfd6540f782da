import { setImmediate as tick } from 'node:timers/promises';
import { defaultMaxWaiting, hashingConcurrency, PasswordHasher } from './password-hasher.js';

describe('PasswordHasher', () => {
  it('hashes with argon2id at the OWASP parameters and verifies only the right password', async () => {
    const hasher = new PasswordHasher();
    const hash = await hasher.hash('Correct-h0rse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await hasher.verify(hash, 'Correct-h0rse')).toBe(true);
    expect(await hasher.verify(hash, 'correct-h0rse')).toBe(false);
  });

  it('hashes new passwords at the cost it is given, and verifies a hash of any cost by the parameters stored in it', async () => {
    const cheap = new PasswordHasher({ cost: { memoryCost: 1024, timeCost: 1 } });
    const hash = await cheap.hash('Correct-h0rse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
    expect(await new PasswordHasher().verify(hash, 'Correct-h0rse')).toBe(true);
    expect(await cheap.verify(await new PasswordHasher().hash('Correct-h0rse'), 'Correct-h0rse')).toBe(true);
  });

  it('answers false, not an error, for a stored value that is not an argon2 hash', async () => {
    expect(await new PasswordHasher().verify('not-a-hash', 'whatever')).toBe(false);
  });

  it('runs no more hashes or verifications at once than it has slots; the rest wait and all complete', async () => {
    const hasher = new PasswordHasher({ concurrency: 2 });
    const hash = await hasher.hash('Correct-h0rse');
    const verifications = Array.from({ length: 5 }, (_, index) => hasher.verify(hash, index % 2 === 0 ? 'Correct-h0rse' : 'wrong'));
    const decoy = hasher.verifyDecoy('Correct-h0rse');
    await tick();
    expect(hasher.load).toEqual({ running: 2, waiting: 4 });
    expect(await Promise.all(verifications)).toEqual([true, false, true, false, true]);
    expect(await decoy).toBe(false);
    expect(hasher.load).toEqual({ running: 0, waiting: 0 });
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After at once, rather than queueing, when the queue is full', async () => {
    const hasher = new PasswordHasher({ concurrency: 1, maxWaiting: 1 });
    const hash = await hasher.hash('Correct-h0rse');
    const accepted = [hasher.verify(hash, 'Correct-h0rse'), hasher.verify(hash, 'wrong')];
    const busy = { code: 'SERVICE_UNAVAILABLE', status: 503, headers: { 'retry-after': '1' } };
    await expect(hasher.verify(hash, 'Correct-h0rse')).rejects.toMatchObject(busy);
    await expect(hasher.hash('Another-h0rse')).rejects.toMatchObject(busy);
    await expect(hasher.verifyDecoy('Correct-h0rse')).rejects.toMatchObject(busy);
    expect(await Promise.all(accepted)).toEqual([true, false]);
    expect(await hasher.verify(hash, 'Correct-h0rse')).toBe(true);
  });

  it('lets by default as many wait as the slots clear in about a second', () => {
    expect(defaultMaxWaiting(1)).toBe(20);
    expect(defaultMaxWaiting(2)).toBe(40);
    expect(new PasswordHasher({ concurrency: 2 }).queue.maxWaiting).toBe(40);
    expect(new PasswordHasher({ concurrency: 2, maxWaiting: 0 }).queue.maxWaiting).toBe(0);
  });

  it('runs one at a time per core, leaving a thread of the pool free', () => {
    expect(hashingConcurrency(2, 4)).toBe(2);
    expect(hashingConcurrency(8, 4)).toBe(3);
    expect(hashingConcurrency(8, 10)).toBe(8);
    expect(hashingConcurrency(4, 1)).toBe(1);
  });
});
