import { generateKeyPairSync } from 'node:crypto';
import { Global, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { JwtVerifier } from '@school/auth';
import { AppError } from '@school/http';
import { createPrismaClient } from '@school/prisma';
import { UnitOfWork } from '@school/service';
import { PrismaClient } from '../generated/prisma/client.js';
import { KeysModule } from './keys.module.js';
import { SigningKeyService } from './signing-key.service.js';

const issuer = 'https://identity.test';
const audience = 'school-test';

/** The PEM path through the real module and HTTP; the database is unreachable, so it must not be needed. */
async function startKeysApp(privateKeyPem: string): Promise<{ app: INestApplication; base: string }> {
  const prisma = createPrismaClient(PrismaClient, { databaseUrl: 'postgresql://nobody@127.0.0.1:1/none', schema: 'identity' });

  @Global()
  @Module({
    providers: [
      { provide: PrismaClient, useValue: prisma },
      { provide: UnitOfWork, useValue: new UnitOfWork(prisma) },
    ],
    exports: [PrismaClient, UnitOfWork],
  })
  class PrismaStandIn {}

  @Module({
    imports: [PrismaStandIn, KeysModule.forRoot({ privateKeyPem, issuer, audience, timings: { activationMs: 0, retirementMs: 0 }, refreshMs: 1_000, jwksMaxAgeSeconds: 120 })],
  })
  class TestModule {}

  const app = await NestFactory.create(TestModule, new FastifyAdapter(), { logger: false, abortOnError: false });
  await app.listen(0, '127.0.0.1');
  return { app, base: await app.getUrl() };
}

describe.each([
  ['Ed25519', 'EdDSA', () => generateKeyPairSync('ed25519').privateKey],
  ['P-256', 'ES256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey],
])('SigningKeyService with a configured %s key', (_name, alg, makeKey) => {
  const pem = makeKey().export({ format: 'pem', type: 'pkcs8' }).toString();
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    ({ app, base } = await startKeysApp(pem));
  });

  afterAll(async () => {
    await app.close();
  });

  it('serves the public key at /.well-known/jwks.json, cacheable for JWKS_CACHE_SECONDS', async () => {
    const response = await fetch(`${base}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=120');
    const body = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({ kid: app.get(SigningKeyService).kid, alg, use: 'sig' });
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(body.keys[0]).not.toHaveProperty(member);
  });

  it('issues tokens that @school/auth accepts, with iss, aud and exp from the options', async () => {
    const keys = app.get(SigningKeyService);
    const before = Date.now();
    const { token, expiresAt } = keys.sign({ sub: 'user-1', sid: 'session-1', role: 'staff', srf: 'admin', amr: ['pwd'] }, 900);
    expect(expiresAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 900_000);
    expect(expiresAt.getTime()).toBeLessThanOrEqual(before + 900_000);

    const verifier = new JwtVerifier({ jwksUrl: `${base}/.well-known/jwks.json`, issuer, audience });
    await expect(verifier.verify(token)).resolves.toEqual({ userId: 'user-1', sessionId: 'session-1', role: 'staff', surface: 'admin', expiresAt });

    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
    expect(header).toEqual({ alg, kid: keys.kid, typ: 'JWT' });
    const wrongAudience = new JwtVerifier({ jwksUrl: `${base}/.well-known/jwks.json`, issuer, audience: 'other' });
    await expect(wrongAudience.verify(token)).rejects.toEqual(new AppError('AUTH_UNAUTHENTICATED'));
  });

  it('issues tokens that expire: exp is the lifetime asked after iat, and a token past it is refused', async () => {
    const claims = { sub: 'user-1', sid: 'session-1', role: 'admin', srf: 'admin', amr: ['pwd'] } as const;
    const verifier = new JwtVerifier({ jwksUrl: `${base}/.well-known/jwks.json`, issuer, audience });
    const live = app.get(SigningKeyService).sign(claims, 60);
    const payload = JSON.parse(Buffer.from(live.token.split('.')[1] ?? '', 'base64url').toString()) as { iat: number; exp: number };
    expect(payload.exp - payload.iat).toBe(60);
    expect(live.expiresAt.getTime()).toBe(payload.exp * 1_000);
    await verifier.verify(live.token);
    // Expired at birth: no wait for the clock, which a loaded machine would stretch past a short lifetime.
    const expired = app.get(SigningKeyService).sign(claims, -1);
    await expect(verifier.verify(expired.token)).rejects.toMatchObject({ code: 'AUTH_UNAUTHENTICATED' });
  });
});
