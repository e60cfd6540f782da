import { type DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@school/service';
import type { NotifierConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';

@Module({})
export class AppModule {
  static forRoot(config: NotifierConfig): DynamicModule {
    return { module: AppModule, imports: [ServiceCoreModule.forRoot('notifier', config, PrismaClient)] };
  }
}
