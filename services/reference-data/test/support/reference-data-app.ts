import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseConfig } from '@school/config';
import { TestBroker, uniqueBrokerPrefix } from '@school/messaging/testing';
import { createPrismaClient } from '@school/prisma';
import { createServiceApp } from '@school/service';
import { createLogger } from '@school/telemetry';
import { createTestIssuer, migratedTestSchema, type MigratedTestSchema, type TestIssuer } from '@school/testing';
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
  /** A replica of the real app over a real socket; `env` overrides its configuration. */
  start(env?: Record<string, string>): Promise<ReferenceDataInstance>;
  token(role: 'admin' | 'staff' | 'customer'): Promise<string>;
  close(): Promise<void>;
}

export async function referenceDataSuite(prefix: string): Promise<ReferenceDataSuite> {
  const db = await migratedTestSchema(serviceDir, prefix);
  const issuer = await createTestIssuer();
  const prisma = createPrismaClient(PrismaClient, { databaseUrl: db.databaseUrl, schema: db.schema, maxConnections: 2 });
  const cachePrefix = `test:${randomBytes(6).toString('hex')}:`;
  // The app serves GEOGRAPHY_CHECK: its queue gets this suite's broker prefix, deleted at close.
  const brokerPrefix = uniqueBrokerPrefix('reference-data-test');
  const instances: ReferenceDataInstance[] = [];

  return {
    db,
    issuer,
    prisma,
    cachePrefix,
    async start(env = {}) {
      const config = parseConfig(referenceDataEnv, {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: db.databaseUrl,
        JWKS_URL: issuer.jwksUrl,
        CACHE_KEY_PREFIX: cachePrefix,
        AMQP_NAME_PREFIX: brokerPrefix,
        ...env,
      });
      const app = await createServiceApp(AppModule.forRoot(config, { schema: db.schema }), {
        logger: createLogger({ service: 'reference-data', level: 'silent' }),
      });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.getHttpServer().address();
      const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const instance: ReferenceDataInstance = {
        baseUrl,
        app,
        async request(method, path, body, accessToken) {
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
        close: () => app.close(),
      };
      instances.push(instance);
      return instance;
    },
    token: (role) => issuer.sign({ sub: randomUUID(), sid: randomUUID(), role }),
    async close() {
      await Promise.allSettled(instances.map((instance) => instance.close()));
      await prisma.$disconnect();
      await issuer.close();
      await db.drop();
      await (await TestBroker.connect(brokerPrefix)).destroy();
    },
  };
}
