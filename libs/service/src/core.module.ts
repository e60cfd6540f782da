import { type DynamicModule, Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { SERVICES, type ServiceName } from '@school/config';
import { AUTH_REDIS, AuthModule } from '@school/auth/nest';
import type { Redis } from 'ioredis';
import { ConfigModule } from './config.module.js';
import { DatabaseModule } from './database.module.js';
import { HealthModule } from './health.module.js';
import { ReadinessRegistry } from './readiness.js';

interface CoreConfig {
  DATABASE_URL: string;
  DATABASE_TRANSACTION_MAX_WAIT_MS?: number;
  DATABASE_TRANSACTION_TIMEOUT_MS?: number;
  REDIS_URL: string;
  JWKS_URL: string;
  JWT_ISSUER: string;
  JWT_AUDIENCE: string;
  JWKS_CACHE_SECONDS?: number;
}

type PrismaClass = Parameters<typeof DatabaseModule.forRoot>[0];

export interface ServiceCoreOptions {
  /** The Postgres schema, when not the service's own (a suite of tests in a schema of its own). */
  schema?: string;
}

@Injectable()
class RedisReadiness implements OnModuleInit {
  constructor(
    @Inject(AUTH_REDIS) private readonly redis: Redis,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.readiness.register('redis', () => this.redis.ping());
  }
}

/**
 * What every service module imports first: its config, health endpoints, its own Prisma client
 * and token verification (services check every token themselves, whatever the gateway did).
 */
@Module({})
export class ServiceCoreModule {
  static forRoot(name: ServiceName, config: CoreConfig, Prisma: PrismaClass, options: ServiceCoreOptions = {}): DynamicModule {
    return {
      module: ServiceCoreModule,
      imports: [
        ConfigModule.forRoot(config),
        HealthModule,
        DatabaseModule.forRoot(
          Prisma,
          { databaseUrl: config.DATABASE_URL, schema: options.schema ?? SERVICES[name].schema },
          { maxWaitMs: config.DATABASE_TRANSACTION_MAX_WAIT_MS ?? 2_000, timeoutMs: config.DATABASE_TRANSACTION_TIMEOUT_MS ?? 5_000 },
        ),
        AuthModule.forRoot({
          jwksUrl: config.JWKS_URL,
          issuer: config.JWT_ISSUER,
          audience: config.JWT_AUDIENCE,
          ...(config.JWKS_CACHE_SECONDS !== undefined && { jwksCacheMaxAgeMs: config.JWKS_CACHE_SECONDS * 1000 }),
          redisUrl: config.REDIS_URL,
        }),
      ],
      providers: [RedisReadiness],
      exports: [ConfigModule, DatabaseModule],
    };
  }
}
