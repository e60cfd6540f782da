import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '@school/service';
import type { Redis } from 'ioredis';
import type { NotifierConfig } from '../config.js';
import { REDIS, REDIS_NAMES, REDIS_SUBSCRIBER, type RedisNames } from '../redis/redis.module.js';
import { sseFrame, type LiveNotification } from './live-notification.js';

/** A client that stopped reading is dropped rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * Fan-out of live notifications. Publishing goes to a Redis channel; every notifier replica is
 * subscribed once and writes each message to the SSE streams connected to it, so every admin
 * gets every event exactly once whichever replica handled the event and whichever one they
 * are connected to. Streams get a heartbeat comment so proxies keep them open.
 */
@Injectable()
export class LiveNotificationHub implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('LiveNotifications');
  private readonly clients = new Set<ServerResponse>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(REDIS_SUBSCRIBER) private readonly subscriber: Redis,
    @Inject(REDIS_NAMES) private readonly names: RedisNames,
    @Inject(APP_CONFIG) private readonly config: NotifierConfig,
  ) {}

  onModuleInit(): void {
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.names.liveChannel) this.broadcast(message);
    });
    // Not awaited: start-up does not wait for Redis; ioredis subscribes once connected and
    // re-subscribes after every reconnect.
    this.subscriber.subscribe(this.names.liveChannel).catch((error: unknown) => this.logger.error({ err: error, msg: 'subscribe failed' }));
    this.heartbeat = setInterval(() => this.writeAll(': heartbeat\n\n'), this.config.SSE_HEARTBEAT_SECONDS * 1000);
  }

  /** Sends a notification to every connected admin on every replica. */
  async publish(notification: LiveNotification): Promise<void> {
    await this.redis.publish(this.names.liveChannel, JSON.stringify(notification));
  }

  /** Registers an open SSE response; returns the function that removes it. */
  attach(response: ServerResponse): () => void {
    this.clients.add(response);
    return () => {
      this.clients.delete(response);
    };
  }

  get connectedClients(): number {
    return this.clients.size;
  }

  /**
   * Ends every stream at shutdown (clients reconnect to another replica) and closes its socket:
   * a response that never ended keeps its connection busy, and the HTTP server would wait for it.
   */
  onModuleDestroy(): void {
    clearInterval(this.heartbeat);
    for (const client of this.clients) {
      client.end();
      client.socket?.destroySoon();
    }
    this.clients.clear();
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
    for (const client of this.clients) {
      if (client.writableEnded || client.destroyed || client.writableLength > MAX_BUFFERED_BYTES) {
        client.destroy();
        this.clients.delete(client);
        continue;
      }
      client.write(chunk);
    }
  }
}
