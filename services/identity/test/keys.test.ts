import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPrismaClient } from '@school/prisma';
import { UnitOfWork } from '@school/service';
import { migratedTestSchema, type MigratedTestSchema } from '@school/testing';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { generateEd25519Pem } from '../src/keys/signing-key.js';
import { SigningKeyRepository } from '../src/keys/signing-key.repository.js';
import { SigningKeyService } from '../src/keys/signing-key.service.js';

const serviceDir = join(import.meta.dirname, '..');
const options = { issuer: 'https://identity.test', audience: 'school-test' };

describe('signing key kept in the identity schema', () => {
  let db: MigratedTestSchema;
  const clients: PrismaClient[] = [];

  /** One identity replica: its own connection pool, the real repository, started as Nest would. */
  async function startReplica(privateKeyPem?: string): Promise<SigningKeyService> {
    const prisma = createPrismaClient(PrismaClient, { databaseUrl: db.databaseUrl, schema: db.schema, maxConnections: 2 });
    clients.push(prisma);
    const service = new SigningKeyService({ ...options, privateKeyPem }, new SigningKeyRepository(), new UnitOfWork(prisma));
    await service.onModuleInit();
    return service;
  }

  async function storedKeys() {
    return clients[0]!.signingKey.findMany();
  }

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'identity_keys');
  });

  afterAll(async () => {
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
});
