import { randomBytes } from 'node:crypto';
import { linkToken } from './mail.js';
import type { SystemView } from '@school/system-harness';

/** The account identity creates at start-up (contract §1 defaults). */
export const BOOTSTRAP_ADMIN = { email: 'admin@example.com', password: 'Admin123!' } as const;

export type Surface = 'admin' | 'mobile';
export const AUTH_PREFIX: Record<Surface, string> = { admin: '/api/auth', mobile: '/api/mobile/auth' };

export interface SignedIn {
  email: string;
  accessToken: string;
  publicId: string;
}

/**
 * A client address of its own (10.128.0.0/9, a range no suite names itself), sent as
 * X-Forwarded-For: on a system with TRUST_PROXY=1, shared by many suites, the ip throttles of
 * contract §4 then count each caller apart; a system without a trusted proxy ignores it.
 */
export function clientAddress(): string {
  const [a = 0, b = 0, c = 0] = randomBytes(3);
  return `10.${128 + (a & 127)}.${b}.${c}`;
}

async function post(system: SystemView, path: string, body: unknown, accessToken?: string): Promise<{ status: number; body: { data: unknown } }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-forwarded-for': clientAddress(),
    ...(accessToken && { authorization: `Bearer ${accessToken}` }),
  };
  const response = await fetch(`${system.gatewayUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { data: unknown } };
}

/** Logs in through the gateway on `surface`; throws unless it answers 200. */
export async function signIn(system: SystemView, surface: Surface, email: string, password: string): Promise<SignedIn> {
  const answer = await post(system, `${AUTH_PREFIX[surface]}/login/email`, { email, password });
  if (answer.status !== 200) throw new Error(`login of ${email} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  const data = answer.body.data as { accessToken: string; user: { publicId: string } };
  return { email, accessToken: data.accessToken, publicId: data.user.publicId };
}

/**
 * A person the admin creates (`POST /api/users`), who sets `password` through the invitation link
 * mailed to them and signs in on the surface of their role.
 */
export async function invitedPerson(
  system: SystemView,
  adminToken: string,
  role: 'admin' | 'staff' | 'customer',
  password: string,
  { mailTimeoutMs }: { mailTimeoutMs?: number } = {},
): Promise<SignedIn> {
  const email = `${role}.${randomBytes(4).toString('hex')}@example.com`;
  const created = await post(system, '/api/users', { email, name: `A ${role}`, role }, adminToken);
  if (created.status !== 201) throw new Error(`creating ${email} failed: ${created.status} ${JSON.stringify(created.body)}`);
  const surface: Surface = role === 'customer' ? 'mobile' : 'admin';
  const token = await linkToken(system.mailDir, email, '/accept-invitation', new Set(), mailTimeoutMs);
  const accepted = await post(system, `${AUTH_PREFIX[surface]}/password/reset`, { token, password });
  if (accepted.status !== 200) throw new Error(`accepting the invitation of ${email} failed: ${accepted.status}`);
  return signIn(system, surface, email, password);
}
