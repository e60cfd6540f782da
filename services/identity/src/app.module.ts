import { eventServiceModule } from '@school/messaging/nest';
import { OpenApiModule } from '@school/openapi/nest';
import type { IdentityConfig } from './config.js';
import { AccountExportModule } from './account-export/account-export.module.js';
import { AUDIT_EVENTS, AuditStoreModule } from './audit/audit.module.js';
import { AuthenticationModule } from './auth/auth.module.js';
import { BootstrapModule } from './bootstrap/bootstrap.module.js';
import { CredentialsModule } from './credentials/credentials.module.js';
import { PrismaClient } from './generated/prisma/client.js';
import { KeysModule } from './keys/keys.module.js';
import { keysModuleOptions } from './keys/keys.options.js';
import { REVOCATION_TTL_SECONDS } from './sessions/token-lifetimes.js';
import { RetentionModule } from './retention/retention.module.js';
import { UsersModule } from './users/users.module.js';
import { IDENTITY_DOCUMENT } from './openapi.js';

// The client address the gateway vouches for: sessions record it, the password-hash queue takes turns by it.
// Asks reference-data GEOGRAPHY_CHECK, and feedback and media for a person's copy (contract §11); serves nothing.
export const AppModule = eventServiceModule('identity', PrismaClient, (config: IdentityConfig) => ({
  // Audit entries of administrator writes and sign-in events, in their transactions (contract §13).
  outbox: true,
  audit: true,
  // The audit store's consumer: every service's audit entries, and erasures (contract §13).
  consumes: { ...AUDIT_EVENTS, prefetch: config.AMQP_PREFETCH },
  modules: [
    // Global: sessions sign access tokens wherever they are started or refreshed.
    { ...KeysModule.forRoot(keysModuleOptions(config, REVOCATION_TTL_SECONDS)), global: true },
    CredentialsModule,
    AuthenticationModule,
    UsersModule,
    AccountExportModule,
    BootstrapModule,
    RetentionModule,
    AuditStoreModule,
    OpenApiModule.forRoot(IDENTITY_DOCUMENT),
  ],
}));
