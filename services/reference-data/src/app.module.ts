import { GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE } from '@school/contracts';
import { eventServiceModule } from '@school/messaging/nest';
import { OpenApiModule } from '@school/openapi/nest';
import { AcademicSessionsModule } from './academic-sessions/academic-sessions.module.js';
import { ADDRESS_EVENTS, AddressUsagesModule } from './address-usages/address-usages.module.js';
import type { ReferenceDataConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { GeographyModule } from './geography/geography.module.js';
import { ListCacheModule } from './list-cache/list-cache.module.js';
import { REFERENCE_DATA_DOCUMENT } from './openapi.js';
import { SchoolProfileModule } from './school-profile/school-profile.module.js';

// The client address the gateway vouches for is named by each audit entry.
export const AppModule = eventServiceModule('reference-data', PrismaClient, (config: ReferenceDataConfig) => ({
  // Audit entries of every administrator write, recorded in the write's transaction (contract §13).
  outbox: true,
  audit: true,
  // Serves GEOGRAPHY_CHECK and GEOGRAPHY_RELEASE to identity, and learns the committed addresses from identity's events.
  serves: [GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE],
  consumes: { ...ADDRESS_EVENTS, prefetch: config.AMQP_PREFETCH },
  modules: [AddressUsagesModule, ListCacheModule, AcademicSessionsModule, GeographyModule, SchoolProfileModule, OpenApiModule.forRoot(REFERENCE_DATA_DOCUMENT)],
}));
