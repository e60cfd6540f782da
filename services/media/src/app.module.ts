import { type DynamicModule, Module } from '@nestjs/common';
import { EventTransportModule, MessagingModule } from '@school/messaging/nest';
import { OpenApiModule } from '@school/openapi/nest';
import { ServiceCoreModule, type ServiceCoreOptions } from '@school/service';
import type { MediaConfig } from './config.js';
import { ERASURE_EVENTS, ERASURE_PREFETCH, ErasureModule } from './erasure/erasure.module.js';
import { PrismaClient } from './generated/prisma/client.js';
import { mediaDocument } from './openapi.js';
import { uploadLimitsOf } from './uploads/upload-limits.js';
import { UploadsModule } from './uploads/uploads.module.js';

@Module({})
export class AppModule {
  static forRoot(config: MediaConfig, options: ServiceCoreOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot('media', config, PrismaClient, options),
        // Learns identity's erasures (contract §11) through its own durable queue: a media that was down catches up.
        MessagingModule.forRoot({ url: config.AMQP_URL, connectionName: 'media', namePrefix: config.AMQP_NAME_PREFIX }),
        EventTransportModule.forRoot({ ...ERASURE_EVENTS, prefetch: ERASURE_PREFETCH }),
        UploadsModule,
        ErasureModule,
        OpenApiModule.forRoot(mediaDocument(uploadLimitsOf(config))),
      ],
    };
  }
}
