import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { forwardedForHeaders } from '@school/auth';
import { parseConfig } from '@school/config';
import { INBOX_MIGRATIONS, OUTBOX_MIGRATIONS } from '@school/messaging';
import { listenConsuming, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { createPrismaClient } from '@school/prisma';
import { createServiceApp } from '@school/service';
import { createLogger } from '@school/telemetry';
import { createTestIssuer, type HttpAnswer, migratedTestSchema, scaled } from '@school/testing';
import { AppModule } from '../../src/app.module.js';
import { feedbackEnv } from '../../src/config.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';

const serviceDir = join(import.meta.dirname, '..', '..');

export type { HttpAnswer } from '@school/testing';

export interface OutboxRow {
  type: string;
  payload: Record<string, unknown>;
}

export interface FeedbackUnderTest {
  baseUrl: string;
  app: INestApplication;
  /** A client of the suite's own schema, for reading what the routes wrote. */
  prisma: PrismaClient;
  /** The broker name prefix (AMQP_NAME_PREFIX) of this app's queues (the RPC it serves, the erasures it consumes). */
  brokerPrefix: string;
  /** The suite's Postgres schema. */
  schema: string;
  token(role: 'admin' | 'staff' | 'customer', userId?: string): Promise<string>;
  /** A JSON (or raw string) body, a bearer token when given, extra headers. */
  request(path: string, body: unknown, options?: { token?: string; headers?: Record<string, string> }): Promise<HttpAnswer & { raw: string }>;
  /** The headers the gateway sends for a client at `forwardedFor`: X-Forwarded-For and its signature. */
  forwardedFrom(forwardedFor: string): Record<string, string>;
  outboxRows(): Promise<OutboxRow[]>;
  /** Empties the submissions and the outbox. */
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** The real app on a real socket, in a schema of its own with the outbox, and a token issuer standing in for identity. */
export async function startFeedback(): Promise<FeedbackUnderTest> {
  const db = await migratedTestSchema(serviceDir, 'feedback', [OUTBOX_MIGRATIONS, INBOX_MIGRATIONS]);
  const issuer = await createTestIssuer();
  const prisma = createPrismaClient(PrismaClient, { databaseUrl: db.databaseUrl, schema: db.schema, maxConnections: 2 });
  const brokerPrefix = uniqueBrokerPrefix('feedback-test');
  // The gateway's key: tests sign X-Forwarded-For with it as the gateway does (forwardedFrom).
  const forwardingSecret = randomBytes(24).toString('base64url');
  const config = parseConfig(feedbackEnv, {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: db.databaseUrl,
    JWKS_URL: issuer.jwksUrl,
    AMQP_NAME_PREFIX: brokerPrefix,
    FORWARDING_SECRET: forwardingSecret,
  });
  const app = await createServiceApp(AppModule.forRoot(config, { schema: db.schema }), { logger: createLogger({ service: 'feedback', level: 'silent' }) });
  const baseUrl = await listenConsuming(app, scaled(30_000));

  return {
    baseUrl,
    app,
    prisma,
    brokerPrefix,
    schema: db.schema,
    token: (role, userId = randomUUID()) => issuer.sign({ sub: userId, sid: randomUUID(), role }),
    async request(path, body, options = {}) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
      const raw = await response.text();
      return { status: response.status, body: JSON.parse(raw) as HttpAnswer['body'], raw };
    },
    forwardedFrom: (forwardedFor) => forwardedForHeaders(forwardingSecret, forwardedFor),
    async outboxRows() {
      return prisma.$queryRawUnsafe<OutboxRow[]>(`SELECT type, payload FROM "${db.schema}".outbox_events ORDER BY created_at, id`);
    },
    async clear() {
      await prisma.$executeRawUnsafe(`TRUNCATE "${db.schema}".feedback_submissions, "${db.schema}".outbox_events`);
    },
    async close() {
      await app.close().catch(() => undefined);
      await prisma.$disconnect();
      await issuer.close();
      await db.drop();
      await (await TestBroker.connect(brokerPrefix)).destroy();
    },
  };
}
