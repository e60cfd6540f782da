import { type DynamicModule, Module } from '@nestjs/common';
import { GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE } from '@school/contracts';
import { ClientAddressModule } from '@school/auth/nest';
import { AuditModule, EventTransportModule, MessagingModule, OutboxModule, RpcModule } from '@school/messaging/nest';
import { OpenApiModule } from '@school/openapi/nest';
import { ServiceCoreModule, type ServiceCoreOptions } from '@school/service';
import { AcademicSessionsModule } from './academic-sessions/academic-sessions.module.js';
import { ADDRESS_EVENTS, AddressUsagesModule } from './address-usages/address-usages.module.js';
import type { ReferenceDataConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { GeographyModule } from './geography/geography.module.js';
import { ListCacheModule } from './list-cache/list-cache.module.js';
import { REFERENCE_DATA_DOCUMENT } from './openapi.js';
import { SchoolProfileModule } from './school-profile/school-profile.module.js';

@Module({})
export class AppModule {
  static forRoot(config: ReferenceDataConfig, options: ServiceCoreOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot('reference-data', config, PrismaClient, options),
        // The client address the gateway vouches for, named by each audit entry.
        ClientAddressModule.forRoot({ forwardingSecret: config.FORWARDING_SECRET }),
        MessagingModule.forRoot({ url: config.AMQP_URL, connectionName: 'reference-data', namePrefix: config.AMQP_NAME_PREFIX }),
        // Audit entries of every administrator write, recorded in the write's transaction (contract §13).
        OutboxModule.forRoot({ databaseUrl: config.DATABASE_URL }),
        AuditModule.forRoot(),
        // Serves GEOGRAPHY_CHECK and GEOGRAPHY_RELEASE to identity, and learns the committed addresses from identity's events.
        RpcModule.forRoot({ serves: [GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE] }),
        EventTransportModule.forRoot({ ...ADDRESS_EVENTS, prefetch: config.AMQP_PREFETCH }),
        AddressUsagesModule,
        ListCacheModule,
        AcademicSessionsModule,
        GeographyModule,
        SchoolProfileModule,
        OpenApiModule.forRoot(REFERENCE_DATA_DOCUMENT),
      ],
    };
  }
}
