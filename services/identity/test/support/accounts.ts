import { randomBytes, randomUUID } from 'node:crypto';
import type { Role } from '@school/auth';
import { UnitOfWork } from '@school/service';
import { AccountCreator } from '../../src/bootstrap/account-creator.js';
import type { User } from '../../src/generated/prisma/client.js';
import { SigningKeyService } from '../../src/keys/signing-key.service.js';
import { PasswordHasher } from '../../src/passwords/password-hasher.js';
import { ProviderAccountsRepository } from '../../src/passwords/provider-accounts.repository.js';
import { UsersRepository } from '../../src/users/users.repository.js';
import type { HttpAnswer, IdentityUnderTest } from '../credentials-support/identity-app.js';

export const PASSWORD = 'Str0ng!pass';
export const NEW_PASSWORD = 'N3w!passw0rd';

export type SurfaceName = 'admin' | 'mobile';

export const AUTH_PREFIX: Record<SurfaceName, string> = { admin: '/api/auth', mobile: '/api/mobile/auth' };

export function surfaceOf(role: Role): SurfaceName {
  return role === 'customer' ? 'mobile' : 'admin';
}

export function uniqueEmail(label: string): string {
  return `${label}.${randomBytes(5).toString('hex')}@example.com`;
}

export interface AccountOptions {
  role?: Role;
  /** null: an invited account that has not set a password yet. */
  password?: string | null;
  banned?: boolean;
  email?: string;
}

/** An account created the way user:create creates it (or, without password, as an invitation leaves it). */
export async function newAccount(identity: IdentityUnderTest, options: AccountOptions = {}): Promise<User> {
  const role = options.role ?? 'customer';
  const email = options.email ?? uniqueEmail(role);
  const users = identity.app.get(UsersRepository, { strict: false });
  let user =
    options.password === null
      ? await users.create({ publicId: randomUUID(), email, name: 'Test Person', role })
      : await new AccountCreator(
          users,
          identity.app.get(ProviderAccountsRepository, { strict: false }),
          identity.app.get(PasswordHasher, { strict: false }),
          identity.app.get(UnitOfWork),
        ).create({
          email,
          name: 'Test Person',
          role,
          password: options.password ?? PASSWORD,
        });
  if (options.banned) user = await identity.prisma.user.update({ where: { id: user.id }, data: { banned: true } });
  return user;
}

export interface TokenPairData {
  accessToken: string;
  refreshToken: string;
  tokenType: string;
  expiresIn: number;
  accessTokenExpiresAt: string;
  refreshTokenExpiresAt: string;
  user: Record<string, unknown>;
}

export function login(identity: IdentityUnderTest, surface: SurfaceName, email: string, password: string, extra: Record<string, unknown> = {}): Promise<HttpAnswer> {
  return identity.request('POST', `${AUTH_PREFIX[surface]}/login/email`, { email, password, ...extra });
}

/** Logs the account in on its own surface and returns the token pair. */
export async function signIn(identity: IdentityUnderTest, user: User, password = PASSWORD): Promise<TokenPairData> {
  const answer = await login(identity, surfaceOf(user.role), user.email, password);
  if (answer.status !== 200) throw new Error(`login of ${user.email} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data as TokenPairData;
}

export function refresh(identity: IdentityUnderTest, surface: SurfaceName, refreshToken: string): Promise<HttpAnswer> {
  return identity.request('POST', `${AUTH_PREFIX[surface]}/refresh`, { refreshToken });
}

export function me(identity: IdentityUnderTest, surface: SurfaceName, accessToken: string): Promise<HttpAnswer> {
  return identity.request('GET', `${AUTH_PREFIX[surface]}/me`, undefined, accessToken);
}

/** A real access token for a session that exists only in the token (accounts without password cannot log in). */
export async function accessTokenFor(identity: IdentityUnderTest, user: User): Promise<string> {
  const { token } = identity.app.get(SigningKeyService, { strict: false }).sign({ sub: user.publicId, sid: randomUUID(), role: user.role, srf: surfaceOf(user.role) }, 900);
  return token;
}

export function sessionIdOf(accessToken: string): string {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { sid: string };
  return payload.sid;
}
