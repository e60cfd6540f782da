import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { forwardedForHeaders } from '@school/auth';
import { parseConfig } from '@school/config';
import { INBOX_MIGRATIONS, OUTBOX_MIGRATIONS } from '@school/messaging';
import { listenConsuming, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { createPrismaClient } from '@school/prisma';
import { createServiceApp } from '@school/service';
import { createLogger } from '@school/telemetry';
import { createTestIssuer, migratedTestSchema, type MigratedTestSchema, scaled } from '@school/testing';
import { AppModule } from '../../src/app.module.js';
import { mediaEnv } from '../../src/config.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';

const serviceDir = join(import.meta.dirname, '..', '..');

export interface Caller {
  userId: string;
  token: string;
}

export interface MediaUnderTest {
  baseUrl: string;
  app: INestApplication;
  storageDir: string;
  prisma: PrismaClient;
  /** The broker name prefix (AMQP_NAME_PREFIX) of the RPC queues media serves, for test clients beside it. */
  brokerPrefix: string;
  /** Media's Postgres schema (its outbox holds the audit entries). */
  schema: string;
  /** Media's HTTP server, for tests that watch requests from the server's side. */
  server: Server;
  /** Every line media logged at warn level or above, as JSON. */
  logs: string[];
  /** A new account's token on the administrator surface (admin role) or the customer one. */
  caller(surface: 'admin' | 'mobile'): Promise<Caller>;
  /** The headers the gateway sends for a client at `forwardedFor`: X-Forwarded-For and its signature. */
  forwardedFrom(forwardedFor: string): Record<string, string>;
  fetch(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  close(): Promise<void>;
}

export interface MediaOptions {
  /** A schema another media also uses (one installation, two processes); the caller drops it. Default: a new one. */
  database?: MigratedTestSchema;
}

/** A migrated schema of media's, for processes started with `database`. */
export function mediaSchema(): Promise<MigratedTestSchema> {
  return migratedTestSchema(serviceDir, 'media', [OUTBOX_MIGRATIONS, INBOX_MIGRATIONS]);
}

/** The real media app over a real socket, with its own schema, token issuer and storage folder. */
export async function startMedia(env: Record<string, string> = {}, options: MediaOptions = {}): Promise<MediaUnderTest> {
  const db = options.database ?? (await mediaSchema());
  const issuer = await createTestIssuer();
  const storageDir = env['STORAGE_DIR'] ?? (await mkdtemp(join(tmpdir(), 'media-storage-')));
  const prisma = createPrismaClient(PrismaClient, { databaseUrl: db.databaseUrl, schema: db.schema, maxConnections: 2 });
  // The outbox relay publishes the audit entries under this prefix, deleted at close.
  const brokerPrefix = env['AMQP_NAME_PREFIX'] ?? uniqueBrokerPrefix('media-test');
  // The gateway's key: tests sign X-Forwarded-For with it as the gateway does (forwardedFrom).
  const forwardingSecret = env['FORWARDING_SECRET'] ?? randomBytes(24).toString('base64url');
  const config = parseConfig(mediaEnv, {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: db.databaseUrl,
    JWKS_URL: issuer.jwksUrl,
    PUBLIC_BASE_URL: 'http://files.test',
    AMQP_NAME_PREFIX: brokerPrefix,
    FORWARDING_SECRET: forwardingSecret,
    ...env,
    STORAGE_DIR: storageDir,
  });
  const logs: string[] = [];
  const app = await createServiceApp(AppModule.forRoot(config, { schema: db.schema }), {
    logger: createLogger({ service: 'media', level: 'warn' }, { write: (line: string) => void logs.push(line) }),
  });
  const release = async () => {
    await app.close().catch(() => undefined);
    await prisma.$disconnect();
    await issuer.close();
    if (!options.database) await db.drop();
    if (!env['STORAGE_DIR']) await rm(storageDir, { recursive: true, force: true });
    if (!env['AMQP_NAME_PREFIX']) await (await TestBroker.connect(brokerPrefix)).destroy();
  };
  const baseUrl = await listenConsuming(app, scaled(30_000)).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  return {
    baseUrl,
    app,
    storageDir,
    prisma,
    brokerPrefix,
    schema: db.schema,
    server: app.getHttpServer(),
    logs,
    async caller(surface) {
      const userId = randomUUID();
      const token = await issuer.sign({ sub: userId, sid: randomUUID(), role: surface === 'admin' ? 'admin' : 'customer', srf: surface });
      return { userId, token };
    },
    forwardedFrom: (forwardedFor) => forwardedForHeaders(forwardingSecret, forwardedFor),
    fetch(path, init = {}) {
      const { token, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token) headers.set('authorization', `Bearer ${token}`);
      return fetch(`${baseUrl}${path}`, { ...rest, headers });
    },
    close: release,
  };
}
