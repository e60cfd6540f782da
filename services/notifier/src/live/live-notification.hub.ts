import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type Principal, SessionRevocations } from '@school/auth';
import { APP_CONFIG } from '@school/service';
import type { Redis } from 'ioredis';
import type { NotifierConfig } from '../config.js';
import { REDIS, REDIS_NAMES, REDIS_SUBSCRIBER, type RedisNames } from '../redis/redis.module.js';
import { sseFrame, type LiveNotification } from './live-notification.js';

/** A client that stopped reading is dropped rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** An open stream and the login session it was opened with. */
interface Listener {
  sessionId: string;
  /** Ends the stream when its access token expires. */
  expiry: NodeJS.Timeout;
}

/**
 * Fan-out of live notifications. Publishing goes to a Redis channel; every notifier replica is
 * subscribed once and writes each message to the SSE streams connected to it, so every admin
 * gets every event exactly once whichever replica handled the event and whichever one they
 * are connected to. Streams get a heartbeat comment so proxies keep them open.
 *
 * A stream lives no longer than the access token it was opened with: it ends when the token
 * expires, and at the first heartbeat after its session is revoked (logout, ban, password reset).
 * The client reconnects with its current token and is checked again like any request.
 */
@Injectable()
export class LiveNotificationHub implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('LiveNotifications');
  private readonly clients = new Map<ServerResponse, Listener>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(REDIS_SUBSCRIBER) private readonly subscriber: Redis,
    @Inject(REDIS_NAMES) private readonly names: RedisNames,
    @Inject(APP_CONFIG) private readonly config: NotifierConfig,
    private readonly revocations: SessionRevocations,
  ) {}

  onModuleInit(): void {
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.names.liveChannel) this.broadcast(message);
    });
    // Not awaited: start-up does not wait for Redis; ioredis subscribes once connected and
    // re-subscribes after every reconnect.
    this.subscriber.subscribe(this.names.liveChannel).catch((error: unknown) => this.logger.error({ err: error, msg: 'subscribe failed' }));
    this.heartbeat = setInterval(() => {
      this.writeAll(': heartbeat\n\n');
      void this.endRevoked();
    }, this.config.SSE_HEARTBEAT_SECONDS * 1000);
  }

  /** Sends a notification to every connected admin on every replica. */
  async publish(notification: LiveNotification): Promise<void> {
    await this.redis.publish(this.names.liveChannel, JSON.stringify(notification));
  }

  /** Registers an open SSE response of `principal`; returns the function that removes it. */
  attach(response: ServerResponse, principal: Principal): () => void {
    const expiry = setTimeout(() => this.end(response), Math.max(0, principal.expiresAt.getTime() - Date.now()));
    expiry.unref();
    this.clients.set(response, { sessionId: principal.sessionId, expiry });
    return () => this.detach(response);
  }

  get connectedClients(): number {
    return this.clients.size;
  }

  /** Ends every stream at shutdown: clients reconnect to another replica, and the HTTP server need not wait for them. */
  onModuleDestroy(): void {
    clearInterval(this.heartbeat);
    for (const client of [...this.clients.keys()]) this.end(client);
  }

  private broadcast(message: string): void {
    let notification: LiveNotification;
    try {
      notification = JSON.parse(message) as LiveNotification;
    } catch {
      this.logger.warn({ msg: 'ignored a malformed live notification' });
      return;
    }
    this.writeAll(sseFrame(notification));
  }

  private writeAll(chunk: string): void {
    for (const client of this.clients.keys()) {
      if (client.writableEnded || client.destroyed || client.writableLength > MAX_BUFFERED_BYTES) {
        client.destroy();
        this.detach(client);
        continue;
      }
      client.write(chunk);
    }
  }

  /**
   * Ends the streams whose session has been revoked. While Redis cannot answer they stay open:
   * nothing reaches them then (the fan-out runs on Redis too), and the next heartbeat asks again.
   */
  private async endRevoked(): Promise<void> {
    await Promise.all(
      [...this.clients].map(async ([client, { sessionId }]) => {
        try {
          if (await this.revocations.isRevoked(sessionId)) this.end(client);
        } catch (error) {
          this.logger.warn({ err: error, msg: 'could not check a live stream for revocation; checking again at the next heartbeat' });
        }
      }),
    );
  }

  /** Ends a stream and closes its socket: a response that never ended keeps its connection busy. */
  private end(client: ServerResponse): void {
    this.detach(client);
    client.end();
    client.socket?.destroySoon();
  }

  private detach(client: ServerResponse): void {
    const listener = this.clients.get(client);
    if (!listener) return;
    clearTimeout(listener.expiry);
    this.clients.delete(client);
  }
}
