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
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  // Without a listener ioredis prints every reconnect failure to the console.
  redis.on('error', options.onError ?? (() => {}));
  return redis;
}
