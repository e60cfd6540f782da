import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { type Observable, throwError } from 'rxjs';

/**
 * Hands whatever an `@EventPattern` handler throws to the AMQP event transport unchanged, which
 * decides from it: DeadLetterError -> dead-letter queue, anything else -> requeue. Nest's default
 * RPC filter would replace it with a generic `Internal server error`, losing that distinction.
 * Apply it to every controller the transport serves: `@UseFilters(EventErrorFilter)`.
 */
@Catch()
export class EventErrorFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
