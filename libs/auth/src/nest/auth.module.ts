import { type DynamicModule, Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Authenticator } from '../authenticator.js';
import { JwtVerifier } from '../jwt-verifier.js';
import { closeRedis, createAuthRedis } from '../redis.js';
import { SessionRevocations } from '../session-revocations.js';
import { AuthGuard } from './auth.guard.js';
import { AUTH_REDIS, type AuthModuleOptions } from './auth.options.js';

/**
 * Token verification for a Nest service: provides Authenticator (and the JwtVerifier and
 * SessionRevocations behind it) plus the guard used by @Authenticated() / @RequirePermissions().
 */
@Module({})
export class AuthModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(AUTH_REDIS) private readonly redis: Redis,
    private readonly revocations: SessionRevocations,
  ) {}

  /** The revocation set is loaded before the service listens (or, Redis away, answers 503 until it is). */
  async onModuleInit(): Promise<void> {
    await this.revocations.start();
  }

  static forRoot(options: AuthModuleOptions): DynamicModule {
    return {
      module: AuthModule,
      global: options.global ?? true,
      providers: [
        { provide: AUTH_REDIS, useFactory: () => createAuthRedis(options.redisUrl) },
        {
          provide: JwtVerifier,
          useFactory: () =>
            new JwtVerifier({
              jwksUrl: options.jwksUrl,
              issuer: options.issuer,
              audience: options.audience,
              ...(options.jwksCooldownMs !== undefined && { jwksCooldownMs: options.jwksCooldownMs }),
              ...(options.jwksCacheMaxAgeMs !== undefined && { jwksCacheMaxAgeMs: options.jwksCacheMaxAgeMs }),
            }),
        },
        {
          provide: SessionRevocations,
          useFactory: (redis: Redis) => new SessionRevocations(redis, options.revocationKey ? { key: options.revocationKey } : {}),
          inject: [AUTH_REDIS],
        },
        {
          provide: Authenticator,
          useFactory: (verifier: JwtVerifier, revocations: SessionRevocations) => new Authenticator(verifier, revocations),
          inject: [JwtVerifier, SessionRevocations],
        },
        AuthGuard,
      ],
      exports: [AUTH_REDIS, JwtVerifier, SessionRevocations, Authenticator, AuthGuard],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.revocations.stop();
    await closeRedis(this.redis);
  }
}
