import { parseArgs } from 'node:util';
import { ROLES } from '@school/auth';
import { AppError, emailAddress, singleLine } from '@school/http';
import { applyMigrations, createPrismaClient } from '@school/prisma';
import { UnitOfWork } from '@school/service';
import { z } from 'zod';
import { AccountCreator } from '../accounts/account-creator.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import type { HashCost } from '../passwords/passwords.config.js';
import { newPassword } from '../passwords/password-policy.js';
import { ProviderAccountsRepository } from '../accounts/provider-accounts.repository.js';
import { AdminsRepository } from '../accounts/admins.repository.js';
import { UsersRepository } from '../accounts/users.repository.js';

export interface UserCreateTarget {
  databaseUrl: string;
  /** The identity schema (contract §1). */
  schema: string;
  /** argon2id's cost for the new password, as identity's configuration gives it (OWASP's by default). */
  hashCost?: HashCost;
  /** Applied first (idempotent, as at identity's start-up), so the command works on a fresh database. */
  migrationsDir?: string;
}

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const options = z.strictObject({
  email: emailAddress,
  role: z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` }),
  password: newPassword,
  name: singleLine(1, 120).optional(),
});

/**
 * `npm run user:create -- --email E --role admin|staff|customer --password P [--name N]`: creates
 * an account with a password, without the API (contract §6). The name defaults to the email's local part.
 * Prints the new publicId and returns 0; on any error prints one line and returns 1.
 */
export async function userCreate(argv: string[], target: UserCreateTarget, output: CliOutput): Promise<number> {
  let input: z.output<typeof options>;
  try {
    input = parseInput(argv);
  } catch (error) {
    output.err(`user:create: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }

  if (target.migrationsDir) {
    try {
      await applyMigrations({ databaseUrl: target.databaseUrl, schema: target.schema, migrationsDir: target.migrationsDir });
    } catch (error) {
      output.err(`user:create: ${describe(error)}`);
      return 1;
    }
  }
  const prisma = createPrismaClient(PrismaClient, { databaseUrl: target.databaseUrl, schema: target.schema, maxConnections: 2 });
  try {
    const creator = new AccountCreator(
      new UsersRepository(prisma),
      new AdminsRepository(prisma),
      new ProviderAccountsRepository(),
      new PasswordHasher({ cost: target.hashCost }),
      new UnitOfWork(prisma),
    );
    const user = await creator.create({ email: input.email, role: input.role, password: input.password, name: input.name ?? input.email.split('@')[0]! });
    output.out(user.publicId);
    return 0;
  } catch (error) {
    output.err(`user:create: ${describe(error)}`);
    return 1;
  } finally {
    await prisma.$disconnect();
  }
}

function parseInput(argv: string[]): z.output<typeof options> {
  const { values } = parseArgs({
    args: argv,
    options: { email: { type: 'string' }, role: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  for (const required of ['email', 'role', 'password'] as const) {
    if (values[required] === undefined) throw new Error(`--${required} is required`);
  }
  const result = options.safeParse(values);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new Error(`--${issue.path.join('.')} ${issue.message}`);
}

function describe(error: unknown): string {
  if (error instanceof AppError && error.code === 'USER_EMAIL_TAKEN') return 'a live account already uses this email';
  if (error instanceof AppError) return error.message;
  // Connection failures and the like: the first line is enough, never a stack trace.
  return (
    (error instanceof Error ? error.message : String(error))
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? 'unknown error'
  );
}
