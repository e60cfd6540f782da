import { afterAll, beforeAll } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { forwardedForHeaders } from '@school/auth';
import { parseConfig } from '@school/config';
import { createPrismaClient } from '@school/prisma';
import { INBOX_MIGRATIONS, OUTBOX_MIGRATIONS } from '@school/messaging';
import { startEventTransport } from '@school/messaging/nest';
import { TestBroker, uniqueBrokerPrefix, untilConsuming } from '@school/messaging/testing';
import { createServiceApp } from '@school/service';
import { createLogger } from '@school/telemetry';
import { createTestDatabase, freePort, type HttpAnswer, httpClient, scaled, serviceTemplate, TEST_PASSWORD_HASH_COST, TEST_PASSWORD_STRENGTH_PRELOAD } from '@school/testing';
import { AppModule } from '../../src/app.module.js';
import { identityEnv } from '../../src/config.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';

const serviceDir = join(import.meta.dirname, '..', '..');

export type { HttpAnswer } from '@school/testing';

export interface IdentityUnderTest {
  app: NestFastifyApplication;
  baseUrl: string;
  /** A client of the suite's own database, for arranging rows and reading what the flows wrote. */
  prisma: PrismaClient;
  /** The broker name prefix (AMQP_NAME_PREFIX) of this app's queues, for test servers and clients beside it. */
  brokerPrefix: string;
  request(method: string, path: string, body?: unknown, accessToken?: string): Promise<HttpAnswer>;
  /** The headers the gateway sends for a client at `forwardedFor`: X-Forwarded-For and its signature. */
  forwardedFrom(forwardedFor: string): Record<string, string>;
  close(): Promise<void>;
}

/**
 * Every app this file started and nobody closed: a suite whose beforeAll timed out on a loaded
 * machine never gets the app to close, and its open sockets (Postgres, Redis, RabbitMQ) would keep
 * jest from exiting. After the file's own hooks, the apps still starting are awaited and closed.
 */
const unclosed = new Set<Promise<IdentityUnderTest>>();
afterAll(async () => {
  const apps = await Promise.allSettled([...unclosed]);
  await Promise.all(apps.flatMap((app) => (app.status === 'fulfilled' ? [app.value.close()] : [])));
});

/**
 * The identity app of a suite (a describe block or the file): started before its tests with `env`
 * and closed after them, each within `hookTimeoutMs` (stretched by the time scale) where jest's
 * default will not do. The handle answers once the suite's first `beforeAll` has run, so it can be
 * declared where the suite's other constants are.
 */
export function identitySuite(env: Record<string, string> = {}, hookTimeoutMs?: number): IdentityUnderTest {
  let started: IdentityUnderTest | undefined;
  const timeout = hookTimeoutMs === undefined ? undefined : scaled(hookTimeoutMs);
  beforeAll(async () => {
    started = await startIdentity(env);
  }, timeout);
  afterAll(() => started?.close(), timeout);
  return new Proxy({} as IdentityUnderTest, {
    get(_target, key) {
      if (started === undefined) throw new Error(`identity is not started yet (reading ${String(key)}): use it in a test or hook`);
      return Reflect.get(started, key);
    },
  });
}

export function startIdentity(env: Record<string, string> = {}): Promise<IdentityUnderTest> {
  const starting = startIdentityApp(env);
  unclosed.add(starting);
  starting.catch(() => unclosed.delete(starting));
  return starting.then((identity) => ({
    ...identity,
    close: async () => {
      if (!unclosed.delete(starting)) return;
      await identity.close();
    },
  }));
}

/**
 * The real identity app over a real socket, on a database of its own: identity's schema name is
 * fixed (`identity`, which the outbox and the Prisma client both use), so isolation between
 * parallel suites is by database, copied from a template migrated once and dropped at close.
 */
async function startIdentityApp(env: Record<string, string>): Promise<IdentityUnderTest> {
  const template = serviceTemplate(serviceDir, [OUTBOX_MIGRATIONS, INBOX_MIGRATIONS]);
  const { schema } = template;
  const db = await createTestDatabase(template, 'identity');
  const databaseUrl = new URL(db.databaseUrl);
  const dropDatabase = () => db.drop();

  let app: NestFastifyApplication | undefined;
  try {
    const port = await freePort();
    const brokerPrefix = env.AMQP_NAME_PREFIX ?? uniqueBrokerPrefix('identity-test');
    const config = parseConfig(identityEnv, {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl.href,
      JWKS_URL: `http://127.0.0.1:${port}/.well-known/jwks.json`,
      AMQP_NAME_PREFIX: brokerPrefix,
      // The gateway's key: tests sign X-Forwarded-For with it as the gateway does (forwardedFrom).
      FORWARDING_SECRET: randomBytes(24).toString('base64url'),
      ...TEST_PASSWORD_HASH_COST,
      ...TEST_PASSWORD_STRENGTH_PRELOAD,
      // The default 2 s for a transaction to start, stretched on a loaded machine: beside stress-ng the
      // kit's own writes (createAccount, the signing keys' re-read) outwaited it (P2028) and failed a suite.
      DATABASE_TRANSACTION_MAX_WAIT_MS: String(Math.min(60_000, scaled(2_000))),
      ...env,
    });
    const forwardingSecret = config.FORWARDING_SECRET ?? '';
    app = await createServiceApp(AppModule.forRoot(config), { logger: createLogger({ service: 'identity', level: 'silent' }) });
    await startEventTransport(app);
    await untilConsuming(app, scaled(30_000));
    await app.listen({ host: '127.0.0.1', port });
    const baseUrl = `http://127.0.0.1:${port}`;
    const prisma = createPrismaClient(PrismaClient, { databaseUrl: databaseUrl.href, schema, maxConnections: 2 });

    const started = app;
    return {
      app: started,
      baseUrl,
      prisma,
      brokerPrefix,
      request: httpClient(baseUrl),
      forwardedFrom: (forwardedFor) => forwardedForHeaders(forwardingSecret, forwardedFor),
      async close() {
        await started.close();
        await prisma.$disconnect();
        await dropDatabase();
        const broker = await TestBroker.connect(brokerPrefix);
        await broker.destroy();
      },
    };
  } catch (error) {
    await app?.close();
    await dropDatabase();
    throw error;
  }
}
