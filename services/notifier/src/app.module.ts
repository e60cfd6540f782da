import { type DynamicModule, Module } from '@nestjs/common';
import { SERVICES } from '@school/config';
import { AuthModule } from '@school/auth/nest';
import { EventTransportModule, MessagingModule } from '@school/messaging/nest';
import { ConfigModule, DatabaseModule, HealthModule, ServiceCoreModule } from '@school/service';
import type { NotifierConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { InboundEventsModule } from './inbound/inbound-events.module.js';
import { INBOUND_EVENTS } from './inbound/inbound-topology.js';
import { LiveNotificationsModule } from './live/live-notifications.module.js';
import { RedisModule } from './redis/redis.module.js';

export interface AppModuleOptions {
  /** Postgres schema other than `notifier` (tests run in a random schema of their own). */
  databaseSchema?: string;
}

@Module({})
export class AppModule {
  static forRoot(config: NotifierConfig, options: AppModuleOptions = {}): DynamicModule {
    const schema = options.databaseSchema ?? SERVICES.notifier.schema;
    const core =
      schema === SERVICES.notifier.schema
        ? [ServiceCoreModule.forRoot('notifier', config, PrismaClient)]
        : [ConfigModule.forRoot(config), HealthModule, DatabaseModule.forRoot(PrismaClient, { databaseUrl: config.DATABASE_URL, schema })];
    return {
      module: AppModule,
      imports: [
        ...core,
        AuthModule.forRoot({ jwksUrl: config.JWKS_URL, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, redisUrl: config.REDIS_URL }),
        MessagingModule.forRoot({ url: config.AMQP_URL, connectionName: 'notifier', namePrefix: config.AMQP_NAME_PREFIX }),
        EventTransportModule.forRoot({ ...INBOUND_EVENTS, prefetch: config.AMQP_PREFETCH }),
        RedisModule,
        InboundEventsModule.forRoot(schema),
        LiveNotificationsModule,
      ],
    };
  }
}
