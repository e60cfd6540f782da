import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Role } from '@school/auth';
import { EVENT_TYPES, loginBody } from '@school/contracts';
import { LoginAccountsRepository } from '../../src/accounts/login-accounts.repository.js';
import { UsersRepository } from '../../src/accounts/users.repository.js';
import { NewDeviceAlert } from '../../src/auth/new-device-alert.js';
import { Login } from '../../src/auth/use-cases/login.js';
import type { User } from '../../src/generated/prisma/client.js';
import { LoginBackoffModule } from '../../src/login-backoff/login-backoff.module.js';
import { MfaModule } from '../../src/mfa/mfa.module.js';
import { PasswordHasher } from '../../src/passwords/password-hasher.js';
import { PasswordsModule } from '../../src/passwords/passwords.module.js';
import type { Surface } from '../../src/sessions/surface.js';
import { type IdentityMedium, identityMediumWithSessions, mediumConfig } from './kit.js';

const PASSWORD = 'Str0ng!pass';
const WRONG = 'Wr0ng!password';
const CLIENT = { ip: '198.51.100.7', userAgent: 'jest' };

/**
 * Contract §4's login rules against the use case (spec §4.1, §4.2): which roles each surface admits,
 * the one refusal for every way a login can fail, the same argon2id work for an unknown email, a
 * ban told only after the right password. The wire (token pair, envelopes, the client address the
 * gateway signs, validation) is login.test.ts; the back-off, login-backoff*.test.ts.
 */
describe('login: the use case over its repositories (medium)', () => {
  let world: IdentityMedium;
  let login: Login;
  let passwordHash: string;

  beforeAll(async () => {
    world = await identityMediumWithSessions('identity_login_medium', [Login, NewDeviceAlert, LoginAccountsRepository, UsersRepository], mediumConfig(), [
      PasswordsModule,
      LoginBackoffModule,
      MfaModule,
    ]);
    login = world.get(Login);
    // One hash for every account: each login still verifies against it, as argon2id would any other.
    passwordHash = await world.get(PasswordHasher).hash(PASSWORD);
  });

  afterAll(() => world?.close());

  async function account(options: { role?: Role; password?: boolean; banned?: boolean; deleted?: boolean } = {}): Promise<User> {
    const user = await world.prisma.user.create({
      data: {
        publicId: randomUUID(),
        email: `${randomUUID()}@example.com`,
        name: 'Test Person',
        role: options.role ?? 'customer',
        banned: options.banned ?? false,
        deletedAt: options.deleted ? new Date() : null,
      },
    });
    if (options.password !== false) await world.prisma.providerAccount.create({ data: { userId: user.id, provider: 'EMAIL', passwordHash } });
    return user;
  }
  /** A login as the route hands it over: the body parsed by the route's own schema. */
  const logIn = (surface: Surface, body: Record<string, unknown>) => login.execute(surface, loginBody.parse(body), CLIENT);
  const refusal = (attempt: Promise<unknown>) =>
    attempt.then(
      () => 'signed in',
      (error: { code?: string }) => error.code,
    );
  const sessionsOf = (user: User) => world.prisma.session.count({ where: { userId: user.id } });

  it.each([
    ['admin', 'admin', 'signed in'],
    ['staff', 'admin', 'signed in'],
    ['customer', 'mobile', 'signed in'],
    ['admin', 'mobile', 'AUTH_INVALID_CREDENTIALS'],
    ['staff', 'mobile', 'AUTH_INVALID_CREDENTIALS'],
    ['customer', 'admin', 'AUTH_INVALID_CREDENTIALS'],
  ] as const)('answers a right password of a %s on the %s surface: %s (a refusal as for a wrong password, with no session)', async (role, surface, outcome) => {
    const user = await account({ role });
    expect(await refusal(logIn(surface, { email: user.email, password: PASSWORD }))).toBe(outcome);
    const started = await world.prisma.session.findMany({ where: { userId: user.id } });
    expect(started).toEqual(outcome === 'signed in' ? [expect.objectContaining({ surface, ip: CLIENT.ip, userAgent: CLIENT.userAgent })] : []);
  });

  it('matches the email case-insensitively and ignores surrounding spaces', async () => {
    const user = await account();
    expect(await refusal(logIn('mobile', { email: `  ${user.email.toUpperCase()} `, password: PASSWORD }))).toBe('signed in');
  });

  it('refuses an unknown email, a wrong password, a deleted account and an account without password alike', async () => {
    const customer = await account();
    const deleted = await account({ deleted: true });
    const invited = await account({ password: false });
    const refusals = [
      await refusal(logIn('mobile', { email: `${randomUUID()}@example.com`, password: PASSWORD })),
      await refusal(logIn('mobile', { email: customer.email, password: WRONG })),
      await refusal(logIn('mobile', { email: deleted.email, password: PASSWORD })),
      await refusal(logIn('mobile', { email: invited.email, password: PASSWORD })),
    ];
    expect(refusals).toEqual(Array.from({ length: 4 }, () => 'AUTH_INVALID_CREDENTIALS'));
  });

  it('spends the same argon2id work on an unknown email as on a wrong password', async () => {
    // The rule, not the clock (timings on a loaded machine prove nothing either way): each login runs
    // exactly one argon2id verification, against a hash of the same parameters, whether the email is
    // known or not. Without the decoy an unknown email would run none.
    const hasher = world.get(PasswordHasher);
    const verified: string[] = [];
    const verify = hasher.verify.bind(hasher);
    hasher.verify = (hash, password, client) => {
      verified.push(hash);
      return verify(hash, password, client);
    };
    const parameters = (hash: string) => /^\$argon2id\$v=\d+\$[^$]+\$/.exec(hash)?.[0];
    try {
      const customer = await account();
      expect(await refusal(logIn('mobile', { email: customer.email, password: WRONG }))).toBe('AUTH_INVALID_CREDENTIALS');
      expect(await refusal(logIn('mobile', { email: `${randomUUID()}@example.com`, password: WRONG }))).toBe('AUTH_INVALID_CREDENTIALS');
      expect(verified).toHaveLength(2);
      const [stored, decoy] = verified.map(parameters);
      expect(stored).toBeDefined();
      expect(decoy).toBe(stored);
      expect(verified[1]).not.toBe(verified[0]);
    } finally {
      hasher.verify = verify;
    }
  });

  it('tells a banned account so only after its correct password, and starts no session', async () => {
    const banned = await account({ banned: true });
    expect(await refusal(logIn('mobile', { email: banned.email, password: WRONG }))).toBe('AUTH_INVALID_CREDENTIALS');
    expect(await refusal(logIn('mobile', { email: banned.email, password: PASSWORD }))).toBe('AUTH_ACCOUNT_BANNED');
    expect(await sessionsOf(banned)).toBe(0);
  });

  it('keeps the device on the session and tells the holder of it once signed in; a refused login tells no one', async () => {
    const user = await account();
    const deviceInfo = { deviceId: 'a1b2c3d4', deviceType: 'android', deviceName: "Asha's Pixel" };
    expect(await refusal(logIn('mobile', { email: user.email, password: WRONG, deviceInfo }))).toBe('AUTH_INVALID_CREDENTIALS');
    expect(await world.prisma.knownDevice.count({ where: { userId: user.id } })).toBe(0);
    await logIn('mobile', { email: user.email, password: PASSWORD, deviceInfo });
    expect(await world.prisma.session.findFirstOrThrow({ where: { userId: user.id } })).toMatchObject(deviceInfo);
    const alerts = (await world.recorded(EVENT_TYPES.newDeviceSignedIn)).filter((event) => event['userId'] === user.publicId);
    expect(alerts).toEqual([expect.objectContaining(deviceInfo)]);
  });
});
