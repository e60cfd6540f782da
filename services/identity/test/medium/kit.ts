import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type DynamicModule, type ModuleMetadata, Module } from '@nestjs/common';
import { closeRedis, createAuthRedis, SessionRevocations } from '@school/auth';
import { parseConfig } from '@school/config';
import { AuditRecorder, INBOX_MIGRATIONS, Outbox, OUTBOX_MIGRATIONS, OUTBOX_TABLE, RpcClient } from '@school/messaging';
import { rpcStandIn, uniqueBrokerPrefix } from '@school/messaging/testing';
import { DatabaseSchema } from '@school/service';
import { type MediumWorld, mediumWorld } from '@school/service/testing';
import { migratedTestSchema, scaled, TEST_PASSWORD_HASH_COST, TEST_PASSWORD_STRENGTH_PRELOAD } from '@school/testing';
import { type IdentityConfig, identityEnv } from '../../src/config.js';
import { Prisma, PrismaClient } from '../../src/generated/prisma/client.js';
import { KEYS_OPTIONS, keysModuleOptions } from '../../src/keys/keys.options.js';
import { SigningKeyRepository } from '../../src/keys/signing-key.repository.js';
import { SigningKeyService } from '../../src/keys/signing-key.service.js';
import { SessionsModule } from '../../src/sessions/sessions.module.js';
import { REVOCATION_TTL_SECONDS } from '../../src/sessions/token-lifetimes.js';

const serviceDir = join(import.meta.dirname, '..', '..');

/** One medium suite's world: a context's use cases over a migrated schema of its own (docs/testing.md). */
export interface IdentityMedium extends MediumWorld<PrismaClient> {
  /** The payloads of the events of `type` the use cases recorded in the outbox, oldest first. */
  recorded(type: string): Promise<Record<string, unknown>[]>;
}

/** Identity's configuration as a test starts it, with `env` over the defaults. */
export function mediumConfig(env: Record<string, string> = {}): IdentityConfig {
  return parseConfig(identityEnv, { ...process.env, NODE_ENV: 'test', ...TEST_PASSWORD_HASH_COST, ...TEST_PASSWORD_STRENGTH_PRELOAD, ...env });
}

@Module({})
class MediumOutboxModule {}

/** The schema's outbox and audit recorder, global as the app's OutboxModule and AuditModule give them, with no relay: rows stay for the test to read. */
const mediumOutbox: DynamicModule = {
  module: MediumOutboxModule,
  global: true,
  providers: [
    { provide: Outbox, useFactory: (schema: DatabaseSchema) => new Outbox(schema.name), inject: [DatabaseSchema] },
    { provide: AuditRecorder, useFactory: (outbox: Outbox) => new AuditRecorder(outbox), inject: [Outbox] },
  ],
  exports: [Outbox, AuditRecorder],
};

/**
 * `providers`: the context's use cases and repositories (as its Nest module lists them, without a
 * controller), or `imports`, its modules; `config`: what `APP_CONFIG` holds for them. Unlike the
 * socket suites' apps, which share identity's fixed schema name and so copy a database each, a
 * medium suite's client and repositories take the schema from the context, so its own schema in
 * the shared database will do.
 */
export async function identityMedium(
  prefix: string,
  providers: NonNullable<ModuleMetadata['providers']>,
  config: object = {},
  imports: NonNullable<ModuleMetadata['imports']> = [],
): Promise<IdentityMedium> {
  const db = await migratedTestSchema(serviceDir, prefix, [OUTBOX_MIGRATIONS, INBOX_MIGRATIONS]);
  const world = await mediumWorld(db, { Prisma: PrismaClient, config, imports: [mediumOutbox, ...imports], providers });
  const outbox = Prisma.raw(`${world.get(DatabaseSchema).sql}.${OUTBOX_TABLE}`);
  return {
    ...world,
    recorded: async (type) =>
      (await world.prisma.$queryRaw<{ payload: Record<string, unknown> }[]>`SELECT payload FROM ${outbox} WHERE type = ${type} ORDER BY id`).map((row) => row.payload),
  };
}

@Module({})
class SessionSupportModule {}

/**
 * What starting a session needs besides the sessions context, global as the app provides it: the
 * signing keys and the revocations on Redis, under a key of the suite's own. `close` after the world's.
 */
function sessionSupport(config: IdentityConfig): { module: DynamicModule; close(): Promise<void> } {
  const redis = createAuthRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const key = `test:revoked:${randomBytes(6).toString('hex')}`;
  return {
    module: {
      module: SessionSupportModule,
      global: true,
      providers: [
        { provide: KEYS_OPTIONS, useValue: keysModuleOptions(config, REVOCATION_TTL_SECONDS) },
        SigningKeyRepository,
        SigningKeyService,
        { provide: SessionRevocations, useValue: new SessionRevocations(redis, { key }) },
      ],
      exports: [SigningKeyService, SessionRevocations],
    },
    async close() {
      await redis.del(key);
      await closeRedis(redis);
    },
  };
}

@Module({})
class ReferenceDataRpcModule {}

/**
 * The RPC client identity asks reference-data through (AccountsModule's address check), global as
 * the app's messaging module gives it: the socket suites' stand-in, on a broker prefix of the
 * suite's own, so a call no test server answers times out as it would with reference-data down.
 * The suite's `brokerPrefix` is where a test starts its reference-data server.
 */
async function referenceDataRpc(): Promise<{ module: DynamicModule; brokerPrefix: string; close(): Promise<void> }> {
  const brokerPrefix = uniqueBrokerPrefix('identity-medium');
  const standIn = await rpcStandIn(brokerPrefix, { callTimeoutMs: scaled(2_000), readyWithinMs: scaled(10_000) });
  return {
    module: { module: ReferenceDataRpcModule, global: true, providers: [{ provide: RpcClient, useValue: standIn.rpc }], exports: [RpcClient] },
    brokerPrefix,
    close: () => standIn.close(),
  };
}

/** A world with sessions; `brokerPrefix` is set where it has the reference-data RPC. */
export interface IdentityMediumWithSessions extends IdentityMedium {
  brokerPrefix?: string;
}

/**
 * A world with sessions: `identityMedium` over the sessions context (`SessionsModule`) and what it
 * needs (`sessionSupport`), `imports` beside them; `rpc`: with the reference-data RPC client too
 * (AccountsModule needs it). Its `close` closes what it started besides the world.
 */
export async function identityMediumWithSessions(
  prefix: string,
  providers: NonNullable<ModuleMetadata['providers']>,
  config: IdentityConfig,
  imports: NonNullable<ModuleMetadata['imports']> = [],
  { rpc = false }: { rpc?: boolean } = {},
): Promise<IdentityMediumWithSessions> {
  const support = sessionSupport(config);
  const closeSupport = async (reference?: { close(): Promise<void> }) => {
    try {
      await reference?.close();
    } finally {
      await support.close();
    }
  };
  let reference: Awaited<ReturnType<typeof referenceDataRpc>> | undefined;
  let world: IdentityMedium;
  try {
    reference = rpc ? await referenceDataRpc() : undefined;
    world = await identityMedium(prefix, providers, config, [support.module, SessionsModule, ...(reference ? [reference.module] : []), ...imports]);
  } catch (error) {
    await closeSupport(reference);
    throw error;
  }
  return {
    ...world,
    ...(reference ? { brokerPrefix: reference.brokerPrefix } : {}),
    async close() {
      try {
        await world.close();
      } finally {
        await closeSupport(reference);
      }
    },
  };
}
