import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseConfig, SERVICES } from '@school/config';
import { AmqpConnection, RpcClient, RpcServer, silentLogger, type RpcRoute } from '@school/messaging';
import { TEST_AMQP_URL, TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { applyMigrations, createPrismaClient } from '@school/prisma';
import { createServiceApp } from '@school/service';
import { createLogger } from '@school/telemetry';
import { createTestIssuer, freePort, quoteIdent, testDatabaseUrl, withConnection, type TestIssuer } from '@school/testing';
import { AppModule } from '../../src/app.module.js';
import { referenceDataEnv } from '../../src/config.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';

const serviceDir = join(import.meta.dirname, '..', '..');

export interface HttpAnswer {
  status: number;
  body: {
    message: string;
    data: unknown;
    errorCode: string | null;
    errors?: { field: string; message: string }[];
    count?: number;
    currentPage?: number;
    totalPage?: number;
  };
}

export interface ReferenceDataUnderTest {
  baseUrl: string;
  databaseUrl: string;
  brokerPrefix: string;
  /** A client of the suite's own database, for arranging rows and reading what the routes wrote. */
  prisma: PrismaClient;
  /** Access tokens of the three roles (contract §4). */
  tokens: { admin: string; staff: string; customer: string };
  request(method: string, path: string, body?: unknown, accessToken?: string | null): Promise<HttpAnswer>;
  /** Applies the migrations again, as a restart or a second replica does. */
  migrate(): Promise<string[]>;
  /** A stand-in for another service on the suite's broker prefix: RPC servers and a client. */
  broker: { serve(routes: RpcRoute[]): Promise<RpcServer>; client(): RpcClient };
  close(): Promise<void>;
}

/**
 * The real reference-data app over a real socket, on a database of its own (its schema name is
 * fixed), with real RabbitMQ under a random name prefix and tokens from a test issuer.
 */
export async function startReferenceData(): Promise<ReferenceDataUnderTest> {
  const serverUrl = testDatabaseUrl();
  const database = `reference_data_test_${randomBytes(6).toString('hex')}`;
  await withConnection(serverUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(database)}`));
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const databaseUrl = url.href;
  const schema = SERVICES['reference-data'].schema;
  const migrationsDir = [join(serviceDir, 'prisma', 'migrations')];
  const cleanups: Array<() => Promise<unknown>> = [
    () => withConnection(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`)),
  ];
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };

  try {
    const migrate = async () => (await applyMigrations({ databaseUrl, schema, migrationsDir })).applied;
    await migrate();
    const issuer: TestIssuer = await createTestIssuer();
    cleanups.push(() => issuer.close());
    const brokerPrefix = uniqueBrokerPrefix('reference-data-test');
    cleanups.push(async () => (await TestBroker.connect(brokerPrefix)).destroy());
    const config = parseConfig(referenceDataEnv, {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      JWKS_URL: issuer.jwksUrl,
      JWT_ISSUER: issuer.issuer,
      JWT_AUDIENCE: issuer.audience,
      AMQP_NAME_PREFIX: brokerPrefix,
    });
    const app: NestFastifyApplication = await createServiceApp(AppModule.forRoot(config), { logger: createLogger({ service: 'reference-data', level: 'silent' }) });
    cleanups.push(() => app.close());
    const port = await freePort();
    await app.listen({ host: '127.0.0.1', port });
    const baseUrl = `http://127.0.0.1:${port}`;
    const prisma = createPrismaClient(PrismaClient, { databaseUrl, schema, maxConnections: 2 });
    cleanups.push(() => prisma.$disconnect());

    const token = (role: string) => issuer.sign({ sub: randomUUID(), sid: randomUUID(), role });
    const tokens = { admin: await token('admin'), staff: await token('staff'), customer: await token('customer') };

    const connection = new AmqpConnection({ url: TEST_AMQP_URL, name: 'identity-stand-in', logger: silentLogger });
    cleanups.push(() => connection.close());

    return {
      baseUrl,
      databaseUrl,
      brokerPrefix,
      prisma,
      tokens,
      migrate,
      broker: {
        async serve(routes) {
          const server = new RpcServer(connection, { prefix: brokerPrefix, routes, prefetch: 10, logger: silentLogger });
          cleanups.push(() => server.stop());
          server.start();
          const deadline = Date.now() + 10_000;
          while (!server.isConsuming()) {
            if (Date.now() > deadline) throw new Error('the stand-in RPC server did not start consuming');
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          return server;
        },
        client() {
          const client = new RpcClient(connection, { prefix: brokerPrefix, logger: silentLogger });
          cleanups.push(() => client.close());
          return client;
        },
      },
      async request(method, path, body, accessToken = tokens.admin) {
        const headers: Record<string, string> = {};
        if (body !== undefined) headers['content-type'] = 'application/json';
        if (accessToken) headers.authorization = `Bearer ${accessToken}`;
        const response = await fetch(`${baseUrl}${path}`, {
          method,
          headers,
          ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
        });
        return { status: response.status, body: (await response.json()) as HttpAnswer['body'] };
      },
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
