import { type DynamicModule, Module } from '@nestjs/common';
import { EventTransportModule, MessagingModule } from '@school/messaging/nest';
import { OpenApiModule } from '@school/openapi/nest';
import { ServiceCoreModule } from '@school/service';
import type { NotifierConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { InboundEventsModule } from './inbound/inbound-events.module.js';
import { INBOUND_EVENTS } from './inbound/inbound-topology.js';
import { LiveNotificationsModule } from './live/live-notifications.module.js';
import { RedisModule } from './redis/redis.module.js';
import { NOTIFIER_DOCUMENT } from './openapi.js';

export interface AppModuleOptions {
  /** Postgres schema other than `notifier` (tests run in a random schema of their own). */
  databaseSchema?: string;
}

@Module({})
export class AppModule {
  static forRoot(config: NotifierConfig, options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot('notifier', config, PrismaClient, { schema: options.databaseSchema }),
        MessagingModule.forRoot({ url: config.AMQP_URL, connectionName: 'notifier', namePrefix: config.AMQP_NAME_PREFIX }),
        EventTransportModule.forRoot({ ...INBOUND_EVENTS, prefetch: config.AMQP_PREFETCH }),
        RedisModule,
        InboundEventsModule,
        LiveNotificationsModule,
        OpenApiModule.forRoot(NOTIFIER_DOCUMENT),
      ],
    };
  }
}
