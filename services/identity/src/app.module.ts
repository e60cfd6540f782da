import { type DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@school/service';
import type { IdentityConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { KeysModule } from './keys/keys.module.js';

@Module({})
export class AppModule {
  static forRoot(config: IdentityConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot('identity', config, PrismaClient),
        KeysModule.forRoot({ privateKeyPem: config.JWT_PRIVATE_KEY, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE }),
      ],
    };
  }
}
