import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '@school/service';
import { closeRedis } from '@school/auth';
import { Redis } from 'ioredis';
import { ListCache } from './list-cache.js';
import type { ListCacheConfig } from './list-cache.config.js';

const CACHE_REDIS = Symbol('LIST_CACHE_REDIS');

/**
 * Commands fail at once while the connection is down (no offline queue), so a read falls back to
 * the database promptly; ioredis keeps reconnecting on its own.
 */
function connectCacheRedis(config: ListCacheConfig): Redis {
  const redis = new Redis(config.CACHE_REDIS_URL ?? config.REDIS_URL, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    connectionName: 'reference-data-cache',
  });
  // The caches log outages themselves; without a listener ioredis prints every reconnect failure.
  redis.on('error', () => {});
  return redis;
}

/** One ListCache per name, on one Redis connection; closed with the application. */
@Injectable()
export class ListCaches implements OnApplicationShutdown {
  private readonly caches = new Map<string, ListCache>();
  private readonly prefix: string;

  constructor(
    @Inject(CACHE_REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: ListCacheConfig,
  ) {
    this.prefix = config.CACHE_KEY_PREFIX;
  }

  named(name: string): ListCache {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new ListCache(this.redis, this.prefix, name);
      this.caches.set(name, cache);
    }
    return cache;
  }

  async onApplicationShutdown(): Promise<void> {
    for (const cache of this.caches.values()) cache.close();
    await closeRedis(this.redis);
  }
}

@Global()
@Module({
  providers: [{ provide: CACHE_REDIS, useFactory: connectCacheRedis, inject: [APP_CONFIG] }, ListCaches],
  exports: [ListCaches],
})
export class ListCacheModule {}
