import { type DynamicModule, Module } from '@nestjs/common';
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
      imports: [ServiceCoreModule.forRoot('media', config, PrismaClient, options), UploadsModule, OpenApiModule.forRoot(mediaDocument(uploadLimitsOf(config)))],
    };
  }
}
