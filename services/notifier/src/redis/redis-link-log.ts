import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';

/** Errors that only say Redis cannot be reached now; ioredis and BullMQ retry them on their own. */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ENETUNREACH']);
const CONNECTION_ERROR_MESSAGES = /Connection is closed|Stream isn't writeable|connect ETIMEDOUT|Reached the max retries per request limit/i;

export function isRedisConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) || CONNECTION_ERROR_MESSAGES.test(error.message);
}

/**
 * The state of one Redis connection in the logs: one warning when it is lost, one line when it is
 * back (with how many errors the outage produced meanwhile), instead of a line, or a raw stack on
 * stderr, per failed reconnect. BullMQ queues and workers on the connection report their errors
 * here too (`track`): connection errors are counted while the link is down, anything else is logged.
 */
export class RedisLinkLog {
  private readonly logger = new Logger('Redis');
  private down = false;
  private errorsWhileDown = 0;

  constructor(
    private readonly connection: string,
    redis: Redis,
  ) {
    redis.on('error', (error: Error) => this.connectionError(error));
    redis.on('ready', () => this.restored());
  }

  /** Error listener for a BullMQ queue or worker on this connection (without one BullMQ prints raw stacks). */
  track(component: string, emitter: { on(event: 'error', listener: (error: Error) => void): unknown }): void {
    emitter.on('error', (error: Error) => {
      if (isRedisConnectionError(error)) {
        // The connection's own events tell the outage; a worker's blocking connection may lag it.
        if (this.down) this.errorsWhileDown += 1;
        else this.logger.debug({ connection: this.connection, component, reason: error.message, msg: 'Redis command failed; retrying' });
        return;
      }
      this.logger.error({ connection: this.connection, component, err: error, msg: `${component} error` });
    });
  }

  private connectionError(error: Error): void {
    if (this.down) {
      this.errorsWhileDown += 1;
      return;
    }
    this.down = true;
    this.errorsWhileDown = 0;
    const code = (error as { code?: unknown }).code;
    this.logger.warn({ connection: this.connection, reason: error.message, ...(typeof code === 'string' && { code }), msg: 'Redis unreachable; reconnecting' });
  }

  private restored(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.log({ connection: this.connection, errorsWhileDown: this.errorsWhileDown, msg: 'Redis reachable again' });
  }
}
