import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { parseConfig, serviceUrlVariable, SERVICE_NAMES } from '@school/config';
import { createTestIssuer, type TestIssuer } from '@school/testing';
import { buildGateway, type GatewayDependencies } from '../../src/app.js';
import { gatewayEnv } from '../../src/config.js';
import { startFakeUpstreams, stopFakeUpstreams, type FakeUpstreams } from './fake-upstreams.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestGateway {
  url: string;
  app: FastifyInstance;
  fakes: FakeUpstreams;
  issuer: TestIssuer;
  keyPrefix: string;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  env?: Record<string, string>;
  deps?: GatewayDependencies;
  /** Share fakes and issuer with another gateway. */
  fakes?: FakeUpstreams;
  issuer?: TestIssuer;
}

/** The real gateway on port 0, in front of fake services, a test JWKS and real Redis (random key prefix). */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const fakes = options.fakes ?? (await startFakeUpstreams());
  const issuer = options.issuer ?? (await createTestIssuer());
  const upstreamEnv = Object.fromEntries(SERVICE_NAMES.map((name) => [serviceUrlVariable(name), fakes[name].url]));
  const config = parseConfig(gatewayEnv, {
    LOG_LEVEL: 'silent',
    REDIS_URL,
    JWKS_URL: issuer.jwksUrl,
    JWT_ISSUER: issuer.issuer,
    JWT_AUDIENCE: issuer.audience,
    ...upstreamEnv,
    ...options.env,
  });
  const keyPrefix = `test:gateway:${randomBytes(6).toString('hex')}:`;
  const app = await buildGateway(config, { throttleKeyPrefix: keyPrefix, ...options.deps });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    url,
    app,
    fakes,
    issuer,
    keyPrefix,
    async close() {
      await app.close();
      if (!options.fakes) await stopFakeUpstreams(fakes);
      if (!options.issuer) await issuer.close();
      await deleteKeys(config.REDIS_URL, keyPrefix);
    },
  };
}

export async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await redis.connect();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } catch {
    // Redis down in this test: nothing was written.
  } finally {
    redis.disconnect();
  }
}

export async function bearer(issuer: TestIssuer, claims: { sub?: string; sid?: string; role?: string } = {}): Promise<string> {
  const token = await issuer.sign({ sub: 'user-1', sid: `session-${randomBytes(4).toString('hex')}`, role: 'customer', ...claims });
  return `Bearer ${token}`;
}

export async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}
