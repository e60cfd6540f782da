import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { forwardedForHeaders } from '@school/auth';
import { parseConfig } from '@school/config';
import { AmqpConnection, INBOX_MIGRATIONS, OUTBOX_MIGRATIONS, RpcClient, RpcServer, silentLogger, type RpcRoute } from '@school/messaging';
import { listenConsuming, TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { applyMigrations, createPrismaClient } from '@school/prisma';
import { createServiceApp } from '@school/service';
import { createLogger } from '@school/telemetry';
import { createTestIssuer, type HttpAnswer, httpClient, migratedTestSchema, type MigratedTestSchema, scaled, type TestIssuer } from '@school/testing';
import { AppModule } from '../../src/app.module.js';
import { referenceDataEnv } from '../../src/config.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';

const serviceDir = join(import.meta.dirname, '..', '..');

export type { HttpAnswer } from '@school/testing';

/** The names of a list answer's rows, in its order. */
export const namesIn = (answer: HttpAnswer) => (answer.body.data as { name: string }[]).map((row) => row.name);

export interface ReferenceDataInstance {
  baseUrl: string;
  app: NestFastifyApplication;
  request(method: string, path: string, body?: unknown, accessToken?: string): Promise<HttpAnswer>;
  close(): Promise<void>;
}

/** One suite's world: its own schema, token issuer and cache key prefix, shared by its app instances. */
export interface ReferenceDataSuite {
  db: MigratedTestSchema;
  issuer: TestIssuer;
  /** A client of the suite's schema, for arranging rows and reading what the routes wrote. */
  prisma: PrismaClient;
  cachePrefix: string;
  /** Broker names of the suite's apps and of stand-ins for other services. */
  brokerPrefix: string;
  /** A replica of the real app over a real socket; `env` overrides its configuration. */
  start(env?: Record<string, string>): Promise<ReferenceDataInstance>;
  token(role: 'admin' | 'staff' | 'customer'): Promise<string>;
  /** The headers the gateway sends for a client at `forwardedFor`: X-Forwarded-For and its signature. */
  forwardedFrom(forwardedFor: string): Record<string, string>;
  close(): Promise<void>;
}

export async function referenceDataSuite(prefix: string): Promise<ReferenceDataSuite> {
  const db = await migratedTestSchema(serviceDir, prefix, [INBOX_MIGRATIONS, OUTBOX_MIGRATIONS]);
  // The gateway's key: tests sign X-Forwarded-For with it as the gateway does (forwardedFrom).
  const forwardingSecret = randomBytes(24).toString('base64url');
  const issuer = await createTestIssuer();
  const prisma = createPrismaClient(PrismaClient, { databaseUrl: db.databaseUrl, schema: db.schema, maxConnections: 2 });
  const cachePrefix = `test:${randomBytes(6).toString('hex')}:`;
  // The app serves GEOGRAPHY_CHECK and consumes events: its queues get this suite's broker prefix, deleted at close.
  const brokerPrefix = uniqueBrokerPrefix('reference-data-test');
  const instances: ReferenceDataInstance[] = [];

  return {
    db,
    issuer,
    prisma,
    cachePrefix,
    brokerPrefix,
    async start(env = {}) {
      const config = parseConfig(referenceDataEnv, {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: db.databaseUrl,
        JWKS_URL: issuer.jwksUrl,
        CACHE_KEY_PREFIX: cachePrefix,
        AMQP_NAME_PREFIX: brokerPrefix,
        FORWARDING_SECRET: forwardingSecret,
        ...env,
      });
      const app = await createServiceApp(AppModule.forRoot(config, { schema: db.schema }), {
        logger: createLogger({ service: 'reference-data', level: 'silent' }),
      });
      const baseUrl = await listenConsuming(app, scaled(30_000));
      let closing: Promise<void> | undefined;
      const instance: ReferenceDataInstance = {
        baseUrl,
        app,
        request: httpClient(baseUrl),
        close: () => (closing ??= app.close()),
      };
      instances.push(instance);
      return instance;
    },
    token: (role) => issuer.sign({ sub: randomUUID(), sid: randomUUID(), role }),
    forwardedFrom: (forwardedFor) => forwardedForHeaders(forwardingSecret, forwardedFor),
    async close() {
      await Promise.allSettled(instances.map((instance) => instance.close()));
      await prisma.$disconnect();
      await issuer.close();
      await db.drop();
      await (await TestBroker.connect(brokerPrefix)).destroy();
    },
  };
}

export interface ReferenceDataUnderTest {
  baseUrl: string;
  /** A client of the suite's own schema, for arranging rows and reading what the routes wrote. */
  prisma: PrismaClient;
  /** Access tokens of the three roles (contract §4). */
  tokens: { admin: string; staff: string; customer: string };
  /** As the admin unless another token (or null: none) is given. */
  request(method: string, path: string, body?: unknown, accessToken?: string | null): Promise<HttpAnswer>;
  /** Applies the migrations again, as a restart or a second replica does. */
  migrate(): Promise<string[]>;
  /** A stand-in for another service on the suite's broker prefix: RPC servers, a client, and events published as its relay would. */
  broker: { serve(routes: RpcRoute[]): Promise<RpcServer>; client(): RpcClient; events(): Promise<TestBroker> };
  close(): Promise<void>;
}

/** One app of a suite of its own (`env` overrides its configuration), with admin/staff/customer tokens and stand-ins for identity over RabbitMQ. */
export async function startReferenceData(prefix = 'reference_data', env: Record<string, string> = {}): Promise<ReferenceDataUnderTest> {
  const suite = await referenceDataSuite(prefix);
  const cleanups: Array<() => Promise<unknown>> = [() => suite.close()];
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const app = await suite.start(env);
    const tokens = { admin: await suite.token('admin'), staff: await suite.token('staff'), customer: await suite.token('customer') };
    const connection = new AmqpConnection({ url: TEST_AMQP_URL, name: 'identity-stand-in', logger: silentLogger });
    cleanups.push(() => connection.close());
    return {
      baseUrl: app.baseUrl,
      prisma: suite.prisma,
      tokens,
      migrate: async () => (await applyMigrations({ databaseUrl: suite.db.databaseUrl, schema: suite.db.schema, migrationsDir: join(serviceDir, 'prisma', 'migrations') })).applied,
      broker: {
        async serve(routes) {
          const server = new RpcServer(connection, { prefix: suite.brokerPrefix, routes, prefetch: 10, logger: silentLogger });
          cleanups.push(() => server.stop());
          server.start();
          const deadline = Date.now() + scaled(10_000);
          while (!server.isConsuming()) {
            if (Date.now() > deadline) throw new Error('the stand-in RPC server did not start consuming');
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          return server;
        },
        client() {
          const client = new RpcClient(connection, { prefix: suite.brokerPrefix, logger: silentLogger });
          cleanups.push(() => client.close());
          return client;
        },
        async events() {
          const broker = await TestBroker.connect(suite.brokerPrefix);
          cleanups.push(() => broker.close());
          return broker;
        },
      },
      request: (method, path, body, accessToken = tokens.admin) => app.request(method, path, body, accessToken ?? undefined),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
