import { closeRedis, createAuthRedis } from '@school/auth';
import { REDIS_URL } from './helpers.js';
import { closedPort } from '@school/testing';

const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('closeRedis: a client closed at shutdown, as often as it is asked (real Redis)', () => {
  it('QUITs a connected client and, asked again, leaves no timer behind to hold the process open', async () => {
    const redis = createAuthRedis(REDIS_URL);
    await redis.ping();
    const before = timers();
    await closeRedis(redis);
    expect(redis.status).toBe('end');
    await closeRedis(redis); // a second app.close(), as Nest runs its shutdown hooks again
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('stops the reconnect attempts of a client whose Redis is unreachable, at once', async () => {
    const redis = createAuthRedis(`redis://127.0.0.1:${await closedPort()}`);
    const started = Date.now();
    await closeRedis(redis);
    expect(Date.now() - started).toBeLessThan(1_000); // no QUIT waiting in the offline queue
    await new Promise((resolve) => setImmediate(resolve));
    expect(['end', 'close']).toContain(redis.status);
  });
});
