import { type CallHandler, type DynamicModule, type ExecutionContext, Injectable, Module, type NestInterceptor } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { Principal } from '@school/auth';
import { PRINCIPAL, requestClientIp } from '@school/auth/nest';
import { Observable } from 'rxjs';
import type { AuditContext } from '../audit/audit-context.js';
import { runWithAuditContext } from '../audit/audit-context.js';
import { AuditRecorder } from '../audit/audit-recorder.js';
import { Outbox } from '../outbox/outbox.js';

interface AuditedRequest {
  id?: string;
  headers: Record<string, string | string[] | undefined>;
  ip?: string;
  clientIp?: string | null;
  [PRINCIPAL]?: Principal;
}

/** Contract §13: what an entry says of the request that made the change. */
export function auditContextOf(request: AuditedRequest): AuditContext {
  const principal = request[PRINCIPAL];
  const userAgent = request.headers['user-agent'];
  return {
    actor: principal ? { publicId: principal.userId, role: principal.role } : null,
    ip: requestClientIp(request),
    userAgent: typeof userAgent === 'string' ? userAgent : null,
    requestId: request.id ?? null,
  };
}

/** Runs each HTTP handler with its request as the context of the entries it records. */
@Injectable()
class AuditContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<AuditedRequest>();
    const source = () => auditContextOf(request);
    return new Observable((subscriber) => runWithAuditContext(source, () => next.handle().subscribe(subscriber)));
  }
}

/**
 * For a service that records audit entries (needs OutboxModule, and ClientAddressModule for the
 * client address the gateway vouched for): provides `AuditRecorder` to its use cases.
 */
@Module({})
export class AuditModule {
  static forRoot(): DynamicModule {
    return {
      module: AuditModule,
      global: true,
      providers: [
        { provide: AuditRecorder, useFactory: (outbox: Outbox) => new AuditRecorder(outbox), inject: [Outbox] },
        { provide: APP_INTERCEPTOR, useClass: AuditContextInterceptor },
      ],
      exports: [AuditRecorder],
    };
  }
}
