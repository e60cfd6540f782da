import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '@school/service';
import { Redis } from 'ioredis';
import { AcademicSessionsCache } from './academic-sessions.cache.js';
import type { AcademicSessionsCacheConfig } from './academic-sessions.config.js';
import { AcademicSessionsController } from './academic-sessions.controller.js';
import { AcademicSessionsRepository } from './academic-sessions.repository.js';
import { AcademicSessionsService } from './academic-sessions.service.js';

const CACHE_REDIS = Symbol('ACADEMIC_SESSIONS_CACHE_REDIS');

/**
 * Commands fail at once while the connection is down (no offline queue), so a read falls back to
 * the database promptly; ioredis keeps reconnecting on its own.
 */
function connectCacheRedis(config: AcademicSessionsCacheConfig): Redis {
  const redis = new Redis(config.CACHE_REDIS_URL ?? config.REDIS_URL, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    connectionName: 'reference-data-cache',
  });
  // The cache logs outages itself; without a listener ioredis prints every reconnect failure.
  redis.on('error', () => {});
  return redis;
}

@Injectable()
class CacheLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(CACHE_REDIS) private readonly redis: Redis,
    private readonly cache: AcademicSessionsCache,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.cache.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Spec §4.6: academic sessions and their list cache. */
@Module({
  controllers: [AcademicSessionsController],
  providers: [
    { provide: CACHE_REDIS, useFactory: connectCacheRedis, inject: [APP_CONFIG] },
    {
      provide: AcademicSessionsCache,
      useFactory: (redis: Redis, config: AcademicSessionsCacheConfig) => new AcademicSessionsCache(redis, config.CACHE_KEY_PREFIX),
      inject: [CACHE_REDIS, APP_CONFIG],
    },
    AcademicSessionsRepository,
    AcademicSessionsService,
    CacheLifecycle,
  ],
})
export class AcademicSessionsModule {}
