import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPrismaClient } from '@school/prisma';
import { UnitOfWork } from '@school/service';
import { type MigratedTestSchema, migratedTestSchema, scaled } from '@school/testing';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { keysRotate } from '../src/cli/keys-rotate.command.js';
import { parseConfig } from '@school/config';
import { keysEnv } from '../src/keys/keys.config.js';
import type { KeyRingTimings } from '../src/keys/key-ring.js';
import { describePrivateKey, generateEd25519Pem, publicPemOf } from '../src/keys/signing-key.js';
import { SigningKeyRepository } from '../src/keys/signing-key.repository.js';
import { SigningKeyService } from '../src/keys/signing-key.service.js';

const serviceDir = join(import.meta.dirname, '..');
// Stretched by the time scale: a loaded machine's replicas may re-read the keys late, and the test
// must still see the new key published before it signs (once, beside stress-ng, it signed already).
const timings: KeyRingTimings = { activationMs: scaled(1_500), retirementMs: scaled(2_000) };
const options = { issuer: 'https://identity.test', audience: 'school-test', timings, refreshMs: 100, jwksMaxAgeSeconds: 1 };

async function eventually(probe: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('signing key kept in the identity schema', () => {
  let db: MigratedTestSchema;
  const clients: PrismaClient[] = [];
  const replicas: SigningKeyService[] = [];

  /** One identity replica: its own connection pool, the real repository, started as Nest would. */
  async function startReplica(privateKeyPem?: string, publicKeyPems?: string[]): Promise<SigningKeyService> {
    const prisma = createPrismaClient(PrismaClient, { databaseUrl: db.databaseUrl, schema: db.schema, maxConnections: 2 });
    clients.push(prisma);
    const service = new SigningKeyService({ ...options, privateKeyPem, publicKeyPems }, new SigningKeyRepository(), new UnitOfWork(prisma));
    await service.onModuleInit();
    replicas.push(service);
    return service;
  }

  async function rotate(argv: string[] = [], environmentKey = false): Promise<{ status: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const status = await keysRotate(
      argv,
      { databaseUrl: db.databaseUrl, schema: db.schema, timings, environmentKey },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    return { status, out, err };
  }

  const kidsOf = (replica: SigningKeyService) => replica.jwks().keys.map((key) => key.kid);

  async function storedKeys() {
    return clients[0]!.signingKey.findMany();
  }

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'identity_keys');
  });

  afterAll(async () => {
    for (const replica of replicas) replica.onModuleDestroy();
    await Promise.all(clients.map((client) => client.$disconnect()));
    await db?.drop();
  });

  it('creates exactly one key when replicas start at the same time', async () => {
    const replicas = await Promise.all(Array.from({ length: 6 }, () => startReplica()));
    const kids = new Set(replicas.map((replica) => replica.kid));
    expect(kids.size).toBe(1);

    const rows = await storedKeys();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kid: replicas[0]!.kid, algorithm: 'EdDSA', publicJwk: replicas[0]!.jwks().keys[0] });
    expect(rows[0]!.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('keeps the same key across restarts, so issued tokens stay valid', async () => {
    const [before] = await storedKeys();
    const restarted = await startReplica();
    expect(restarted.kid).toBe(before!.kid);
    expect(restarted.jwks()).toEqual({ keys: [before!.publicJwk] });
    expect(await storedKeys()).toHaveLength(1);
  });

  it('does not touch the table when JWT_PRIVATE_KEY is configured', async () => {
    const [stored] = await storedKeys();
    const configured = await startReplica(generateEd25519Pem());
    expect(configured.kid).not.toBe(stored!.kid);
    expect(await storedKeys()).toHaveLength(1);
  });

  it('a rotation reaches every replica: published at once, signing after the activation delay, the old key verifying until its retirement, then dropped', async () => {
    const [a, b] = await Promise.all([startReplica(), startReplica()]);
    const oldKid = a.kid;
    expect(kidsOf(a)).toEqual([oldKid]);

    const rotated = await rotate();
    expect(rotated.status).toBe(0);
    const newKid = /^new signing key ([^\s:]+): published now, signs from (\S+)$/.exec(rotated.out[0] ?? '')?.[1];
    expect(newKid).toBeDefined();
    expect(rotated.out[1]).toBe(`verifying: ${newKid}, ${oldKid}`);

    // Published before it signs, so verifiers know it first.
    await eventually(() => [a, b].every((replica) => kidsOf(replica).includes(newKid)), 'the new key in every JWKS');
    expect([a.kid, b.kid]).toEqual([oldKid, oldKid]);

    await eventually(() => [a, b].every((replica) => replica.kid === newKid), 'every replica to sign with the new key');
    expect(kidsOf(a)).toEqual([newKid, oldKid]);
    const header = JSON.parse(Buffer.from(a.sign({ sub: 'u', sid: 's', role: 'admin', srf: 'admin', amr: ['pwd'] }, 60).token.split('.')[0]!, 'base64url').toString());
    expect(header.kid).toBe(newKid);

    await eventually(() => [a, b].every((replica) => kidsOf(replica).length === 1), 'the old key to retire', 5_000);
    expect(kidsOf(b)).toEqual([newKid]);

    const again = await rotate();
    expect(again.out[2]).toBe(`dropped (no live token left): ${oldKid}`);
    expect((await storedKeys()).map((row) => row.kid).sort()).toEqual([newKid, /^new signing key ([^\s:]+)/.exec(again.out[0]!)![1]].sort());
  });

  it('with JWT_PRIVATE_KEY, publishes JWT_PUBLIC_KEYS beside it and keeps rotation to the environment', async () => {
    const printed = await rotate(['--print']);
    expect(printed.status).toBe(0);
    const text = printed.out.join('\n');
    const config = parseConfig(keysEnv, {
      JWT_PRIVATE_KEY: /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/.exec(text)![0],
      JWT_PUBLIC_KEYS: /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/.exec(text)![0],
    });
    const current = generateEd25519Pem();
    const replica = await startReplica(current, config.JWT_PUBLIC_KEYS);
    const previousKid = (await describePrivateKey(config.JWT_PRIVATE_KEY!)).kid;
    expect(text).toContain(`# kid ${previousKid}`);
    expect(kidsOf(replica)).toEqual([replica.kid, previousKid]);
    expect(replica.kid).toBe((await describePrivateKey(current)).kid);

    const refused = await rotate([], true);
    expect(refused.status).toBe(1);
    expect(refused.err[0]).toMatch(/^keys:rotate: identity signs with JWT_PRIVATE_KEY/);
    expect(() => parseConfig(keysEnv, { JWT_PUBLIC_KEYS: publicPemOf(current).replace('MCow', 'MCox') })).toThrow(/^Invalid configuration: JWT_PUBLIC_KEYS: /);
  });
});
