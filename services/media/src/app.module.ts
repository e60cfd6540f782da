import { type DynamicModule, Module } from '@nestjs/common';
import { FILES_OF_ACCOUNT } from '@school/contracts';
import { ClientAddressModule } from '@school/auth/nest';
import { AuditModule, MessagingModule, OutboxModule, RpcModule } from '@school/messaging/nest';
import { OpenApiModule } from '@school/openapi/nest';
import { ServiceCoreModule, type ServiceCoreOptions } from '@school/service';
import type { MediaConfig } from './config.js';
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
        // The client address the gateway vouches for, named by each audit entry.
        ClientAddressModule.forRoot({ forwardingSecret: config.FORWARDING_SECRET }),
        MessagingModule.forRoot({ url: config.AMQP_URL, connectionName: 'media', namePrefix: config.AMQP_NAME_PREFIX }),
        // Answers identity's question for a person's copy of their data (contract §11).
        RpcModule.forRoot({ serves: [FILES_OF_ACCOUNT] }),
        // Audit entries of administrators' uploads, recorded with the upload's record (contract §13).
        OutboxModule.forRoot({ databaseUrl: config.DATABASE_URL }),
        AuditModule.forRoot(),
        UploadsModule,
        OpenApiModule.forRoot(mediaDocument(uploadLimitsOf(config))),
      ],
    };
  }
}
