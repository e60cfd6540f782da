import { type DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@school/service';
import type { FeedbackConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';

@Module({})
export class AppModule {
  static forRoot(config: FeedbackConfig): DynamicModule {
    return { module: AppModule, imports: [ServiceCoreModule.forRoot('feedback', config, PrismaClient)] };
  }
}
