import { type DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@school/service';
import type { ReferenceDataConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';

@Module({})
export class AppModule {
  static forRoot(config: ReferenceDataConfig): DynamicModule {
    return { module: AppModule, imports: [ServiceCoreModule.forRoot('reference-data', config, PrismaClient)] };
  }
}
