import {
  type CallHandler,
  type DynamicModule,
  type ExecutionContext,
  Injectable,
  Module,
  type NestInterceptor,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { Redis } from 'ioredis';
import { clientIpOf, ForwardingSecret } from '../forwarded-client.js';
import { AUTH_REDIS } from './auth.options.js';

interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  ip?: string;
  clientIp?: string | null;
}

/** Sets `clientIp` on every request before its handler: what `requestClientIp` reads. */
@Injectable()
class ClientAddressInterceptor implements NestInterceptor {
  constructor(private readonly secret: ForwardingSecret) {}

  intercept(context: ExecutionContext, next: CallHandler): ReturnType<CallHandler['handle']> {
    const request = context.switchToHttp().getRequest<RequestLike>();
    request.clientIp = clientIpOf(request, this.secret.current());
    return next.handle();
  }
}

/**
 * The client address of each request, as the gateway vouched for it (FORWARDING_SECRET; see
 * clientIpOf). Needs AuthModule (its Redis keeps the generated secret outside production).
 */
@Module({})
export class ClientAddressModule implements OnModuleInit, OnApplicationShutdown {
  constructor(private readonly secret: ForwardingSecret) {}

  static forRoot(options: { forwardingSecret: string | undefined }): DynamicModule {
    return {
      module: ClientAddressModule,
      providers: [
        { provide: ForwardingSecret, useFactory: (redis: Redis) => new ForwardingSecret(redis, options.forwardingSecret), inject: [AUTH_REDIS] },
        { provide: APP_INTERCEPTOR, useClass: ClientAddressInterceptor },
      ],
    };
  }

  async onModuleInit(): Promise<void> {
    await this.secret.start();
  }

  onApplicationShutdown(): void {
    this.secret.stop();
  }
}

/** The request's client address (ClientAddressModule); without the module, its socket address. */
export function requestClientIp(request: RequestLike): string | null {
  return request.clientIp !== undefined ? request.clientIp : clientIpOf(request, undefined);
}
