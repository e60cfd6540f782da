import { type DynamicModule, Module } from '@nestjs/common';
import { ClientAddressModule } from '@school/auth/nest';
import { MessagingModule, OutboxModule, RpcModule } from '@school/messaging/nest';
import { OpenApiModule } from '@school/openapi/nest';
import { FEEDBACK_SENT_BY_ACCOUNT } from '@school/contracts';
import { ServiceCoreModule, type ServiceCoreOptions } from '@school/service';
import type { FeedbackConfig } from './config.js';
import { FeedbackModule } from './feedback/feedback.module.js';
import { PrismaClient } from './generated/prisma/client.js';
import { FEEDBACK_DOCUMENT } from './openapi.js';

@Module({})
export class AppModule {
  static forRoot(config: FeedbackConfig, options: ServiceCoreOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot('feedback', config, PrismaClient, options),
        // The client address the gateway vouches for, stored with each submission.
        ClientAddressModule.forRoot({ forwardingSecret: config.FORWARDING_SECRET }),
        MessagingModule.forRoot({ url: config.AMQP_URL, connectionName: 'feedback', namePrefix: config.AMQP_NAME_PREFIX }),
        OutboxModule.forRoot({ databaseUrl: config.DATABASE_URL }),
        // Answers identity's question for a person's copy of their data (contract §11).
        RpcModule.forRoot({ serves: [FEEDBACK_SENT_BY_ACCOUNT] }),
        FeedbackModule,
        OpenApiModule.forRoot(FEEDBACK_DOCUMENT),
      ],
    };
  }
}
