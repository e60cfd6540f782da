import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICES } from '@school/config';
import { EVENT_TYPES } from '@school/contracts';
import { type AuditAction } from '@school/contracts';
import { SECRET_CHANGED } from '@school/messaging';
import { auditEntriesIn, type RecordedAuditEntry, secretsIn, unexpectedInBurst } from '@school/messaging/testing';
import type { User } from '../src/generated/prisma/client.js';
import { AUTH_PREFIX, createAccount, identitySuite, lastEventOf, login, NEW_PASSWORD, PASSWORD, serveMessageRequests, signIn, uniqueEmail } from './kit/index.js';

const CLIENT_IP = '203.0.113.7';
const USER_AGENT = 'audit-test/1.0 (contract §13)';

interface Answer {
  status: number;
  body: { data?: unknown } & Record<string, unknown>;
  requestId: string | null;
}

describe('audit entries of identity (contract §13): one per admin change and admin-surface sign-in event, in its transaction', () => {
  const identity = identitySuite();
  let admin: User;
  let adminToken: string;
  const secrets: string[] = [PASSWORD, NEW_PASSWORD];

  beforeAll(async () => {
    admin = await createAccount(identity, { role: 'admin' });
    const tokens = await signIn(identity, admin);
    adminToken = tokens.accessToken;
    secrets.push(tokens.accessToken, tokens.refreshToken);
  });

  /** A request as the gateway forwards it: the client's address signed, its user agent, the request id the gateway chose. */
  async function call(method: string, path: string, body?: unknown, token = adminToken, requestId = randomUUID()): Promise<Answer> {
    const response = await fetch(`${identity.baseUrl}${path}`, {
      method,
      headers: {
        ...identity.forwardedFrom(CLIENT_IP),
        'user-agent': USER_AGENT,
        'x-request-id': requestId,
        ...(token && { authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'], requestId: response.headers.get('x-request-id') };
  }

  const entries = () => auditEntriesIn(identity.prisma, SERVICES.identity.schema);
  const entriesOf = async (targetId: string, action?: AuditAction) =>
    (await entries()).filter((entry) => entry.target?.id === targetId && (action === undefined || entry.action === action));

  function expectFromTheRequest(entry: RecordedAuditEntry | undefined, answer: Answer): void {
    expect(entry).toMatchObject({ ip: CLIENT_IP, userAgent: USER_AGENT, requestId: answer.requestId });
    expect(answer.requestId).toEqual(expect.any(String));
  }

  describe('users', () => {
    it('records a create with its fields from null, the caller as actor, and the request it came from', async () => {
      const email = uniqueEmail('created');
      const answer = await call('POST', '/api/users', { email, name: 'Created Person', role: 'staff' });
      expect(answer.status).toBe(201);
      const publicId = (answer.body.data as { publicId: string }).publicId;
      const recorded = await entriesOf(publicId);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({
        action: 'user.create',
        target: { type: 'user', id: publicId },
        actor: { publicId: admin.publicId, role: 'admin' },
        changes: { email: { from: null, to: email }, name: { from: null, to: 'Created Person' }, role: { from: null, to: 'staff' }, banned: { from: null, to: false } },
      });
      expect(recorded[0]!.changes).not.toHaveProperty('phone');
      expectFromTheRequest(recorded[0], answer);
    });

    it('records an update with only the fields it changed, and a soft delete as deletedAt from null', async () => {
      const user = await createAccount(identity, { role: 'staff' });
      const patched = await call('PATCH', `/api/users/${user.publicId}`, { name: 'Renamed Person', role: 'staff' });
      expect(patched.status).toBe(200);
      const [update] = await entriesOf(user.publicId, 'user.update');
      expect(update?.changes).toEqual({ name: { from: 'Test Person', to: 'Renamed Person' } });
      expectFromTheRequest(update, patched);

      const removed = await call('DELETE', `/api/users/${user.publicId}`);
      expect(removed.status).toBe(200);
      const deletedAt = (await identity.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).deletedAt;
      const [deletion] = await entriesOf(user.publicId, 'user.delete');
      expect(deletion?.changes).toEqual({ deletedAt: { from: null, to: deletedAt?.toISOString() } });
      expect(await entriesOf(user.publicId)).toHaveLength(2);
    });

    it('records the sessions an administrator ended', async () => {
      const staff = await createAccount(identity, { role: 'staff' });
      await signIn(identity, staff);
      const answer = await call('DELETE', `/api/users/${staff.publicId}/sessions`);
      expect(answer.status).toBe(200);
      const [ended] = await entriesOf(staff.publicId, 'user.sessions_end');
      expect(ended).toMatchObject({ target: { type: 'user', id: staff.publicId }, actor: { publicId: admin.publicId, role: 'admin' } });
      expectFromTheRequest(ended, answer);
    });

    it('records nothing for a refused change: 400, 403, 404, 409', async () => {
      const taken = await createAccount(identity, { role: 'staff' });
      const staff = await createAccount(identity, { role: 'staff' });
      const staffToken = (await signIn(identity, staff)).accessToken;
      const before = (await entries()).length;
      expect((await call('PATCH', `/api/users/${taken.publicId}`, { name: '' })).status).toBe(400);
      expect((await call('PATCH', `/api/users/${taken.publicId}`, { name: 'Not Allowed' }, staffToken)).status).toBe(403);
      expect((await call('PATCH', `/api/users/${randomUUID()}`, { name: 'Nobody' })).status).toBe(404);
      expect((await call('POST', '/api/users', { email: taken.email, name: 'Twin', role: 'staff' })).status).toBe(409);
      expect((await call('DELETE', `/api/users/${admin.publicId}`)).status).toBe(409);
      expect(await entries()).toHaveLength(before);
    });

    it('records exactly one entry for each of 50 parallel changes, and none for one answered 503', async () => {
      const users = await Promise.all(Array.from({ length: 50 }, () => createAccount(identity, { role: 'customer', password: null })));
      const answers = await Promise.all(users.map((user, at) => call('PATCH', `/api/users/${user.publicId}`, { name: `Parallel ${at}` })));
      expect(unexpectedInBurst(answers, 200)).toEqual([]);
      const changed = users.filter((_, at) => answers[at]!.status === 200).map((user) => user.publicId);
      expect(changed.length).toBeGreaterThan(0);
      const ids = new Set(users.map((user) => user.publicId));
      const updates = (await entries()).filter((entry) => entry.action === 'user.update' && ids.has(entry.target?.id ?? ''));
      expect(updates.map((entry) => entry.target?.id).sort()).toEqual(changed.sort());
      expect(new Set(updates.map((entry) => entry.requestId)).size).toBe(changed.length);
    });
  });

  describe('sign-in events', () => {
    it('records an administrator-surface login, failed login, set password and logout, the account as actor', async () => {
      const staff = await createAccount(identity, { role: 'staff' });
      const failed = await login(identity, 'admin', staff.email, 'Wr0ng!guess');
      expect(failed.status).toBe(401);
      const [failure] = await entriesOf(staff.publicId, 'auth.login_failed');
      expect(failure).toMatchObject({ actor: { publicId: staff.publicId, role: 'staff' }, target: { type: 'user', id: staff.publicId }, changes: {} });
      secrets.push('Wr0ng!guess');

      const tokens = await signIn(identity, staff);
      secrets.push(tokens.accessToken, tokens.refreshToken);
      expect(await entriesOf(staff.publicId, 'auth.login')).toHaveLength(1);

      const set = await call('POST', `${AUTH_PREFIX.admin}/password/set`, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, tokens.accessToken);
      expect(set.status).toBe(200);
      const [passwordSet] = await entriesOf(staff.publicId, 'auth.password_set');
      expect(passwordSet).toMatchObject({ actor: { publicId: staff.publicId, role: 'staff' }, changes: { password: { from: SECRET_CHANGED, to: SECRET_CHANGED } } });
      expectFromTheRequest(passwordSet, set);

      const logout = await call('DELETE', `${AUTH_PREFIX.admin}/logout`, undefined, tokens.accessToken);
      expect(logout.status).toBe(200);
      const [loggedOut] = await entriesOf(staff.publicId, 'auth.logout');
      expect(loggedOut).toMatchObject({ actor: { publicId: staff.publicId, role: 'staff' } });
      expectFromTheRequest(loggedOut, logout);
    });

    it('records a password reset of an administrator-surface account', async () => {
      const staff = await createAccount(identity, { role: 'staff' });
      expect((await call('POST', `${AUTH_PREFIX.admin}/password/forgot`, { email: staff.email }, '')).status).toBe(200);
      await serveMessageRequests(identity);
      const requested = await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, staff.publicId);
      secrets.push(requested.otp);
      const reset = await call('POST', `${AUTH_PREFIX.admin}/password/reset`, { email: staff.email, otp: requested.otp, password: NEW_PASSWORD }, '');
      expect(reset.status).toBe(200);
      const [entry] = await entriesOf(staff.publicId, 'auth.password_reset');
      expect(entry).toMatchObject({ actor: { publicId: staff.publicId, role: 'staff' }, changes: { password: { from: SECRET_CHANGED, to: SECRET_CHANGED } } });
      expectFromTheRequest(entry, reset);
    });

    it("records no customer's sign-in events", async () => {
      const customer = await createAccount(identity, { role: 'customer' });
      expect((await login(identity, 'mobile', customer.email, 'Wr0ng!guess')).status).toBe(401);
      const tokens = await signIn(identity, customer);
      expect((await call('DELETE', `${AUTH_PREFIX.mobile}/logout`, undefined, tokens.accessToken)).status).toBe(200);
      expect(await entriesOf(customer.publicId)).toEqual([]);
    });

    it('records the back-off once, when the fifth failure starts it; the refused logins record nothing', async () => {
      const staff = await createAccount(identity, { role: 'staff' });
      for (let at = 0; at < 5; at += 1) expect((await login(identity, 'admin', staff.email, `Wr0ng!guess${at}`)).status).toBe(401);
      expect((await login(identity, 'admin', staff.email, PASSWORD)).status).toBe(429);
      expect((await login(identity, 'admin', staff.email, 'Wr0ng!again')).status).toBe(429);
      const recorded = await entriesOf(staff.publicId);
      expect(recorded.filter((entry) => entry.action === 'auth.login_failed')).toHaveLength(5);
      expect(recorded.filter((entry) => entry.action === 'auth.backoff')).toHaveLength(1);
      expect(recorded).toHaveLength(6);
    });
  });

  describe('secrets', () => {
    it('never holds a password, token or code used', async () => {
      // Runs last: the suites above used (and pushed) their passwords, tokens and the reset code.
      expect(secrets.length).toBeGreaterThanOrEqual(8);
      expect(secretsIn(await entries(), secrets)).toEqual([]);
    });
  });
});
