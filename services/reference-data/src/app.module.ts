import { type DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule, type ServiceCoreOptions } from '@school/service';
import { AcademicSessionsModule } from './academic-sessions/academic-sessions.module.js';
import type { ReferenceDataConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';

@Module({})
export class AppModule {
  static forRoot(config: ReferenceDataConfig, options: ServiceCoreOptions = {}): DynamicModule {
    return { module: AppModule, imports: [ServiceCoreModule.forRoot('reference-data', config, PrismaClient, options), AcademicSessionsModule] };
  }
}
