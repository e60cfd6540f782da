import { type DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule, type ServiceCoreOptions } from '@school/service';
import type { MediaConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { UploadsModule } from './uploads/uploads.module.js';

@Module({})
export class AppModule {
  static forRoot(config: MediaConfig, options: ServiceCoreOptions = {}): DynamicModule {
    return { module: AppModule, imports: [ServiceCoreModule.forRoot('media', config, PrismaClient, options), UploadsModule] };
  }
}
