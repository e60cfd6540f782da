import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseConfig } from '@school/config';
import { createPrismaClient } from '@school/prisma';
import { UnitOfWork } from '@school/service';
import { createTestSchema, migratedTestSchema, type MigratedTestSchema } from '@school/testing';
import { AccountCreator } from '../src/accounts/account-creator.js';
import { userCreate } from '../src/cli/user-create.command.js';
import { identityEnv } from '../src/config.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { PasswordHasher } from '../src/passwords/password-hasher.js';
import { ProviderAccountsRepository } from '../src/accounts/provider-accounts.repository.js';
import { AdminsRepository } from '../src/accounts/admins.repository.js';
import { UsersRepository } from '../src/accounts/users.repository.js';
import { identitySuite, login, uniqueEmail } from './kit/index.js';

const serviceDir = join(import.meta.dirname, '..');

describe('bootstrap admin at identity start-up', () => {
  const identity = identitySuite({ BOOTSTRAP_ADMIN_EMAIL: 'Root@School.example', BOOTSTRAP_ADMIN_PASSWORD: 'B00tstrap!pw' });

  it('creates one admin from BOOTSTRAP_ADMIN_EMAIL / BOOTSTRAP_ADMIN_PASSWORD, who can log in', async () => {
    const admins = await identity.prisma.user.findMany({ where: { role: 'admin' } });
    expect(admins).toHaveLength(1);
    expect(admins[0]).toMatchObject({ email: 'root@school.example', name: 'Administrator', banned: false, deletedAt: null });
    const answer = await login(identity, 'admin', 'root@school.example', 'B00tstrap!pw');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ user: { role: 'admin', hasPassword: true } });
  });

  it('defaults to admin@example.com / Admin123! and refuses a weak password in one line', () => {
    const config = parseConfig(identityEnv, {});
    expect(config.BOOTSTRAP_ADMIN_EMAIL).toBe('admin@example.com');
    expect(config.BOOTSTRAP_ADMIN_PASSWORD).toBe('Admin123!');
    expect(() => parseConfig(identityEnv, { BOOTSTRAP_ADMIN_PASSWORD: 'admin' })).toThrow(/^Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD: /);
    expect(() => parseConfig(identityEnv, { BOOTSTRAP_ADMIN_EMAIL: 'root' })).toThrow(/^Invalid configuration: BOOTSTRAP_ADMIN_EMAIL: /);
  });
});

describe('bootstrap admin across restarts and replicas', () => {
  let db: MigratedTestSchema;
  const clients: PrismaClient[] = [];

  /** One identity replica's account creator, on its own connection pool. */
  function replica(): AccountCreator {
    const prisma = createPrismaClient(PrismaClient, { databaseUrl: db.databaseUrl, schema: db.schema, maxConnections: 2 });
    clients.push(prisma);
    return new AccountCreator(new UsersRepository(prisma), new AdminsRepository(prisma), new ProviderAccountsRepository(), new PasswordHasher(), new UnitOfWork(prisma));
  }

  const admin = { email: 'admin@example.com', name: 'Administrator', password: 'Admin123!' };

  beforeAll(async () => {
    db = await migratedTestSchema(serviceDir, 'identity_bootstrap');
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.$disconnect()));
    await db?.drop();
  });

  it('creates exactly one admin when replicas start at the same time, and none on a restart', async () => {
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => replica().ensureAdmin(admin)));
    expect(outcomes.filter((result) => result.outcome === 'created')).toHaveLength(1);
    expect(outcomes.filter((result) => result.outcome === 'exists')).toHaveLength(3);
    expect(await clients[0]!.user.count({ where: { role: 'admin' } })).toBe(1);

    expect(await replica().ensureAdmin(admin)).toEqual({ outcome: 'exists' });
    expect(await replica().ensureAdmin({ ...admin, email: 'other@example.com' })).toEqual({ outcome: 'exists' });
    expect(await clients[0]!.user.count({ where: { role: 'admin' } })).toBe(1);
  });

  it('creates a new one when the only admin was soft-deleted, unless the email belongs to someone else', async () => {
    await clients[0]!.user.updateMany({ where: { role: 'admin' }, data: { deletedAt: new Date() } });
    const taken = uniqueEmail('customer');
    await replica().create({ email: taken, name: 'Customer', role: 'customer', password: 'Str0ng!pass' });
    expect(await replica().ensureAdmin({ ...admin, email: taken })).toEqual({ outcome: 'email-taken' });
    expect((await replica().ensureAdmin(admin)).outcome).toBe('created');
  });

  describe('npm run user:create', () => {
    function run(argv: string[]) {
      const out: string[] = [];
      const err: string[] = [];
      return userCreate(argv, { databaseUrl: db.databaseUrl, schema: db.schema }, { out: (line) => out.push(line), err: (line) => err.push(line) }).then((code) => ({
        code,
        out,
        err,
      }));
    }

    it('creates an account with its password and prints its publicId', async () => {
      const email = uniqueEmail('cli');
      const result = await run(['--email', email.toUpperCase(), '--role', 'staff', '--password', 'Cl1!Desk-Maple', '--name', 'Desk Staff']);
      expect(result).toEqual({ code: 0, out: [expect.stringMatching(/^[0-9a-f-]{36}$/)], err: [] });
      const user = await clients[0]!.user.findUniqueOrThrow({ where: { publicId: result.out[0]! }, include: { accounts: true } });
      expect(user).toMatchObject({ email, role: 'staff', name: 'Desk Staff' });
      expect(await new PasswordHasher().verify(user.accounts[0]!.passwordHash!, 'Cl1!Desk-Maple')).toBe(true);
    });

    it('applies the migrations first when given the folder, so it works on a fresh schema', async () => {
      const target = await createTestSchema('identity_cli');
      try {
        const out: string[] = [];
        const code = await userCreate(
          ['--email', uniqueEmail('fresh'), '--role', 'admin', '--password', 'Fr3sh!pass'],
          { databaseUrl: target.databaseUrl, schema: target.schema, migrationsDir: join(serviceDir, 'prisma', 'migrations') },
          { out: (line) => out.push(line), err: () => undefined },
        );
        expect(code).toBe(0);
        expect(out).toHaveLength(1);
      } finally {
        await target.drop();
      }
    });

    it('names the email when it is taken by a live account, in one line, exit 1', async () => {
      const email = uniqueEmail('dup');
      expect((await run(['--email', email, '--role', 'customer', '--password', 'Cl1!Desk-Maple'])).code).toBe(0);
      expect(await run(['--email', email, '--role', 'admin', '--password', 'Cl1!Desk-Maple'])).toEqual({
        code: 1,
        out: [],
        err: ['user:create: a live account already uses this email'],
      });
    });

    it.each([
      ['a weak password', ['--email', 'w@example.com', '--role', 'admin', '--password', 'weak'], /^user:create: --password must be at least 8 characters$/],
      ['a breached password', ['--email', 'b@example.com', '--role', 'admin', '--password', 'P@ssw0rd'], /^user:create: --password is too common: /],
      ['a guessable password (contract §9)', ['--email', 'g@example.com', '--role', 'admin', '--password', 'Password1!'], /^user:create: --password is too easy to guess: /],
      ['an unknown role', ['--email', 'r@example.com', '--role', 'root', '--password', 'Cl1!Desk-Maple'], /^user:create: --role must be one of admin, staff, customer$/],
      ['a malformed email', ['--email', 'nope', '--role', 'admin', '--password', 'Cl1!Desk-Maple'], /^user:create: --email must be an email address$/],
      ['no email', ['--role', 'admin', '--password', 'Cl1!Desk-Maple'], /^user:create: --email is required$/],
      ['an unknown option', ['--email', 'u@example.com', '--role', 'admin', '--password', 'Cl1!Desk-Maple', '--admin'], /^user:create: .*--admin/],
    ])('refuses %s with one line and exit 1', async (_case, argv, message) => {
      const result = await run(argv);
      expect(result.code).toBe(1);
      expect(result.out).toEqual([]);
      expect(result.err).toEqual([expect.stringMatching(message)]);
    });
  });
});
