import { type DynamicModule, Module } from '@nestjs/common';
import { SERVICES, type ServiceName } from '@school/config';
import { ConfigModule } from './config.module.js';
import { DatabaseModule } from './database.module.js';
import { HealthModule } from './health.module.js';

interface CoreConfig {
  DATABASE_URL: string;
}

type PrismaClass = Parameters<typeof DatabaseModule.forRoot>[0];

/** What every service module imports first: its config, health endpoints and its own Prisma client. */
@Module({})
export class ServiceCoreModule {
  static forRoot(name: ServiceName, config: CoreConfig, Prisma: PrismaClass): DynamicModule {
    return {
      module: ServiceCoreModule,
      imports: [
        ConfigModule.forRoot(config),
        HealthModule,
        DatabaseModule.forRoot(Prisma, { databaseUrl: config.DATABASE_URL, schema: SERVICES[name].schema }),
      ],
      exports: [ConfigModule, DatabaseModule],
    };
  }
}
