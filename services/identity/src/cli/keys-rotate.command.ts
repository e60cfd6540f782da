import { parseArgs } from 'node:util';
import { applyMigrations, createPrismaClient } from '@school/prisma';
import { UnitOfWork } from '@school/service';
import { PrismaClient } from '../generated/prisma/client.js';
import type { KeyRingTimings } from '../keys/key-ring.js';
import { KeyRotation } from '../keys/key-rotation.js';
import { describePrivateKey, generateEd25519Pem, publicPemOf } from '../keys/signing-key.js';
import { SigningKeyRepository } from '../keys/signing-key.repository.js';
import type { CliOutput, UserCreateTarget } from './user-create.command.js';

export interface KeysRotateTarget extends UserCreateTarget {
  timings: KeyRingTimings;
  /** JWT_PRIVATE_KEY is set: identity signs with the environment's key, which the database cannot rotate. */
  environmentKey: boolean;
}

/**
 * `npm run keys:rotate`: stores a new signing key in the identity schema (published at once, signing
 * after the activation delay, the old one verifying until its tokens expire). `--print` prints a
 * new key pair for a deployment that signs with JWT_PRIVATE_KEY and touches nothing. 0 done, 1 failed.
 */
export async function keysRotate(argv: string[], target: KeysRotateTarget, output: CliOutput): Promise<number> {
  let print: boolean;
  try {
    print = parseArgs({ args: argv, options: { print: { type: 'boolean' } }, strict: true, allowPositionals: false }).values.print ?? false;
  } catch (error) {
    output.err(`keys:rotate: ${messageOf(error)} (usage: npm run keys:rotate [-- --print])`);
    return 1;
  }
  if (print) {
    const pem = generateEd25519Pem();
    const { kid } = await describePrivateKey(pem);
    output.out(`# kid ${kid}\n# JWT_PRIVATE_KEY (keep secret):\n${pem.trim()}\n# its public key, for JWT_PUBLIC_KEYS:\n${publicPemOf(pem).trim()}`);
    return 0;
  }
  if (target.environmentKey) {
    output.err(
      'keys:rotate: identity signs with JWT_PRIVATE_KEY, which only its environment can change: follow "Signing key rotation" in the README (npm run keys:rotate -- --print makes a new key pair)',
    );
    return 1;
  }
  const prisma = createPrismaClient(PrismaClient, { databaseUrl: target.databaseUrl, schema: target.schema, maxConnections: 2 });
  try {
    if (target.migrationsDir) await applyMigrations({ databaseUrl: target.databaseUrl, schema: target.schema, migrationsDir: target.migrationsDir });
    const result = await new KeyRotation(new SigningKeyRepository(), new UnitOfWork(prisma)).rotate(target.timings);
    output.out(`new signing key ${result.kid}: published now, signs from ${result.signsFrom.toISOString()}`);
    output.out(`verifying: ${result.published.join(', ')}`);
    if (result.dropped.length > 0) output.out(`dropped (no live token left): ${result.dropped.join(', ')}`);
    return 0;
  } catch (error) {
    output.err(`keys:rotate: ${messageOf(error)}`);
    return 1;
  } finally {
    await prisma.$disconnect();
  }
}

function messageOf(error: unknown): string {
  return (
    (error instanceof Error ? error.message : String(error))
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? 'unknown error'
  );
}
