import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionRevocations } from '@school/auth';
import { AppError } from '@school/http';
import type { Logger } from '@school/telemetry';
import { type StreamSlot, StreamSlots } from './stream-slots.js';

/** Contract §9: open event streams per user. */
export const STREAMS_PER_USER = 3;
const LEASE_MS = 30_000;
const RENEW_EVERY_MS = 10_000;
const REDIS_TIMEOUT_MS = 1_000;

interface OpenStream {
  reply: FastifyReply;
  sessionId: string;
  slot: StreamSlot;
}

export interface LiveStreamsOptions {
  keyPrefix: string;
  logger: Logger;
  /** Absent when a test brings its own authenticator: streams are then never cut on revocation. */
  revocations?: SessionRevocations;
}

/**
 * The event streams open on this replica (contract §9, live notifications): at most STREAMS_PER_USER
 * per user across replicas (StreamSlots), each ended as soon as its session is revoked, all ended
 * when the gateway stops.
 */
export class LiveStreams {
  private readonly slots: StreamSlots;
  private readonly open = new Set<OpenStream>();
  private readonly timer: NodeJS.Timeout;
  private readonly stopListening: () => void;

  constructor(
    redis: ConstructorParameters<typeof StreamSlots>[0],
    private readonly options: LiveStreamsOptions,
  ) {
    this.slots = new StreamSlots(redis, { keyPrefix: options.keyPrefix, limit: STREAMS_PER_USER, leaseMs: LEASE_MS, timeoutMs: REDIS_TIMEOUT_MS });
    this.stopListening = options.revocations?.onRevoked((sessionId) => this.endSession(sessionId)) ?? (() => {});
    this.timer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
    this.timer.unref();
  }

  /** The onRequest hook of a stream route, after authentication: 429 over the user's limit. */
  readonly admit = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const principal = request.principal;
    if (!principal) throw new AppError('AUTH_UNAUTHENTICATED');
    const slot = await this.slots.take(principal.userId);
    if (!slot) throw new AppError('RATE_LIMITED', undefined, { headers: { 'retry-after': String(RENEW_EVERY_MS / 1000) } });
    const stream: OpenStream = { reply, sessionId: principal.sessionId, slot };
    this.open.add(stream);
    reply.raw.once('close', () => {
      this.open.delete(stream);
      this.slots.release(slot).catch((error: unknown) => this.options.logger.warn({ err: error }, 'could not release an event stream slot; its lease will free it'));
    });
    // A revocation that arrived while the slot was being taken found no stream to end.
    if (await this.options.revocations?.isRevoked(principal.sessionId)) reply.raw.destroy();
  };

  /** Ends every stream (shutdown): clients reconnect to another replica. */
  endAll(): void {
    for (const { reply } of this.open) reply.raw.destroy();
  }

  close(): void {
    clearInterval(this.timer);
    this.stopListening();
  }

  private endSession(sessionId: string): void {
    for (const stream of this.open) if (stream.sessionId === sessionId) stream.reply.raw.destroy();
  }

  private async renew(): Promise<void> {
    try {
      await this.slots.renew([...this.open].map((stream) => stream.slot));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not renew event stream leases');
    }
  }
}
