import { randomBytes, randomUUID } from 'node:crypto';
import type { Role } from '@school/auth';
import type { PrismaClient, User } from '../../src/generated/prisma/client.js';
import { SigningKeyService } from '../../src/keys/signing-key.service.js';
import { PasswordHasher } from '../../src/passwords/password-hasher.js';
import type { HttpAnswer, IdentityUnderTest } from './identity-app.js';

/** Every account's password unless a test says otherwise, and another strong one to change it to. */
export const PASSWORD = 'Str0ng!pass';
export const NEW_PASSWORD = 'N3w!Brass-Kettle';

export type SurfaceName = 'admin' | 'mobile';

export const AUTH_PREFIX: Record<SurfaceName, string> = { admin: '/api/auth', mobile: '/api/mobile/auth' };

export function surfaceOf(role: Role): SurfaceName {
  return role === 'customer' ? 'mobile' : 'admin';
}

/** A unique email per call, so tests of one suite never share an account. */
export function uniqueEmail(label = 'user'): string {
  return `${label}.${randomBytes(5).toString('hex')}@example.com`;
}

export function uniquePhone(): string {
  return `+97798${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}

/** An account's rows as an administrator would have created them. */
export interface AccountRows {
  role?: Role;
  email?: string;
  phone?: string | null;
  banned?: boolean;
  emailVerified?: boolean;
  phoneVerified?: boolean;
  deleted?: boolean;
}

export interface AccountOptions extends Omit<AccountRows, 'deleted'> {
  /** null: an invited account that has not set a password yet. */
  password?: string | null;
}

/** The rows of an account written directly through `prisma`; with `passwordHash`, its EMAIL provider account (without, an invited account). */
export async function writeAccount(prisma: PrismaClient, rows: AccountRows = {}, passwordHash?: string): Promise<User> {
  const role = rows.role ?? 'customer';
  const user = await prisma.user.create({
    data: {
      publicId: randomUUID(),
      email: rows.email ?? uniqueEmail(role),
      name: 'Test Person',
      role,
      phone: rows.phone ?? null,
      banned: rows.banned ?? false,
      emailVerifiedAt: rows.emailVerified ? new Date() : null,
      phoneVerifiedAt: rows.phoneVerified ? new Date() : null,
      deletedAt: rows.deleted ? new Date() : null,
    },
  });
  if (passwordHash !== undefined) await prisma.providerAccount.create({ data: { userId: user.id, provider: 'EMAIL', passwordHash } });
  return user;
}

/** An account as an administrator would have created it (rows written directly), with a password unless null. */
export async function createAccount(identity: IdentityUnderTest, { password, ...rows }: AccountOptions = {}): Promise<User> {
  const passwordHash = password === null ? undefined : await identity.app.get(PasswordHasher, { strict: false }).hash(password ?? PASSWORD);
  return writeAccount(identity.prisma, rows, passwordHash);
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

/** Logs the account in on the surface its role belongs to, with device info; the login answer. */
export function logIn(identity: IdentityUnderTest, user: Pick<User, 'email' | 'role'>, password = PASSWORD): Promise<HttpAnswer> {
  return login(identity, surfaceOf(user.role), user.email, password, { deviceInfo: { deviceId: 'jest', deviceType: 'test', deviceName: 'jest' } });
}

/** Logs the account in on its own surface and returns the token pair. */
export async function signIn(identity: IdentityUnderTest, user: Pick<User, 'email' | 'role'>, password = PASSWORD): Promise<TokenPairData> {
  const answer = await logIn(identity, user, password);
  if (answer.status !== 200) throw new Error(`login of ${user.email} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data as TokenPairData;
}

/** A real session through the login route; its access token. */
export async function signedInAccessToken(identity: IdentityUnderTest, user: Pick<User, 'email' | 'role'>, password = PASSWORD): Promise<string> {
  return (await signIn(identity, user, password)).accessToken;
}

export function refresh(identity: IdentityUnderTest, surface: SurfaceName, refreshToken: string): Promise<HttpAnswer> {
  return identity.request('POST', `${AUTH_PREFIX[surface]}/refresh`, { refreshToken });
}

export function me(identity: IdentityUnderTest, surface: SurfaceName, accessToken: string): Promise<HttpAnswer> {
  return identity.request('GET', `${AUTH_PREFIX[surface]}/me`, undefined, accessToken);
}

/** A real access token for a session that exists only in the token (accounts without password cannot log in). */
export function accessTokenFor(identity: IdentityUnderTest, user: User): string {
  return identity.app.get(SigningKeyService, { strict: false }).sign({ sub: user.publicId, sid: randomUUID(), role: user.role, srf: surfaceOf(user.role), amr: ['pwd'] }, 900)
    .token;
}

export function sessionIdOf(accessToken: string): string {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { sid: string };
  return payload.sid;
}

/**
 * `count` calls of `work` (given 0..count-1), four at a time: concurrent, yet never five logins of
 * one email in flight, which the per-email back-off would count as five failures (contract §9).
 */
export async function inLanes<T>(count: number, work: (at: number) => Promise<T>, lanes = 4): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    for (let at = next++; at < count; at = next++) results[at] = await work(at);
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}
