import { type DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@school/service';
import type { MediaConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';

@Module({})
export class AppModule {
  static forRoot(config: MediaConfig): DynamicModule {
    return { module: AppModule, imports: [ServiceCoreModule.forRoot('media', config, PrismaClient)] };
  }
}
