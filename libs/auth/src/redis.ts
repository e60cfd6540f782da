import { Redis } from 'ioredis';

export interface AuthRedisOptions {
  /** Receives connection errors (they also surface as 503s on the requests that need Redis). */
  onError?: (error: Error) => void;
}

/**
 * A Redis client for the revocation check: while Redis is unreachable, commands fail after one
 * retry instead of queueing for long, so requests get a prompt 503 rather than hanging.
 */
export function createAuthRedis(redisUrl: string, options: AuthRedisOptions = {}): Redis {
  // A disconnect while Redis is away would otherwise leave a 2 s timer (ioredis destroys the socket
  // it ended after `disconnectTimeout`, even one long closed) holding the process open at shutdown.
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000, disconnectTimeout: 200 });
  // Without a listener ioredis prints every reconnect failure to the console.
  redis.on('error', options.onError ?? (() => {}));
  return redis;
}

/**
 * Closes a Redis client at shutdown, as often as it is asked. Connected: QUIT, so pending commands
 * finish first, waiting at most `graceMs` for the socket to end. Unreachable or still connecting:
 * a disconnect that stops the reconnect attempts (QUIT would wait in the offline queue). Ended
 * already: nothing, since ioredis's disconnect() of an ended client arms a 2 s timer that holds
 * the process open.
 */
export async function closeRedis(redis: Redis, graceMs = 1_000): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  const ended = new Promise<void>((resolve) => redis.once('end', () => resolve()));
  await redis.quit().catch(() => redis.disconnect());
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
}
