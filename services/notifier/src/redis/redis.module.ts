import { Global, Inject, Injectable, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, ReadinessRegistry } from '@school/service';
import { closeRedis } from '@school/auth';
import { Redis } from 'ioredis';
import type { NotifierConfig } from '../config.js';
import { RedisLinkLog } from './redis-link-log.js';

/**
 * Commands and BullMQ (queue and workers): `maxRetriesPerRequest: null`, as BullMQ requires (lesson 7).
 * Its RedisLinkLog is injectable: every BullMQ queue and worker reports its errors to it.
 */
export const REDIS = Symbol('REDIS');
/** A connection in subscriber mode for live notifications (it can run no other command). */
export const REDIS_SUBSCRIBER = Symbol('REDIS_SUBSCRIBER');
/** Key and channel names under the configured prefix. */
export const REDIS_NAMES = Symbol('REDIS_NAMES');

export interface RedisNames {
  /** BullMQ key prefix. */
  bullPrefix: string;
  liveChannel: string;
}

/** Redis pub/sub channel carrying live admin notifications to every notifier replica. */
const LIVE_NOTIFICATION_CHANNEL = 'notifier:live';

export function redisNames(prefix: string): RedisNames {
  return { bullPrefix: `${prefix}bull`, liveChannel: `${prefix}${LIVE_NOTIFICATION_CHANNEL}` };
}

/** Reconnects on its own; its outages are logged once per state change (RedisLinkLog). */
function connect(url: string, name: string): { redis: Redis; log: RedisLinkLog } {
  const redis = new Redis(url, { maxRetriesPerRequest: null, connectionName: name });
  return { redis, log: new RedisLinkLog(name, redis) };
}

const MAIN_CONNECTION = Symbol('MAIN_CONNECTION');

@Injectable()
class RedisLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(REDIS_SUBSCRIBER) private readonly subscriber: Redis,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.readiness.register('redis', () => this.redis.ping());
    this.readiness.register('redis-subscriber', async () => {
      if (this.subscriber.status !== 'ready') throw new Error(`subscriber connection is ${this.subscriber.status}`);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.redis, this.subscriber].map((client) => closeRedis(client)));
  }
}

@Global()
@Module({
  providers: [
    { provide: MAIN_CONNECTION, useFactory: (config: NotifierConfig) => connect(config.REDIS_URL, 'notifier'), inject: [APP_CONFIG] },
    { provide: REDIS, useFactory: (main: { redis: Redis }) => main.redis, inject: [MAIN_CONNECTION] },
    { provide: RedisLinkLog, useFactory: (main: { log: RedisLinkLog }) => main.log, inject: [MAIN_CONNECTION] },
    { provide: REDIS_SUBSCRIBER, useFactory: (config: NotifierConfig) => connect(config.REDIS_URL, 'notifier-live').redis, inject: [APP_CONFIG] },
    { provide: REDIS_NAMES, useFactory: (config: NotifierConfig) => redisNames(config.REDIS_KEY_PREFIX), inject: [APP_CONFIG] },
    RedisLifecycle,
  ],
  exports: [REDIS, REDIS_SUBSCRIBER, REDIS_NAMES, RedisLinkLog],
})
export class RedisModule {}
