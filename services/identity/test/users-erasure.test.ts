import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { emailDigest } from '@school/http';
import { TestBroker } from '@school/messaging/testing';
import { waitFor } from '@school/testing';
import type { User } from '../src/generated/prisma/client.js';
import {
  AUTH_PREFIX,
  createAccount,
  identitySuite,
  invite,
  lastEventOf,
  logIn,
  recordedEvents,
  refresh,
  serveMessageRequests,
  signedInAccessToken,
  signIn,
  tokenOf,
  uniquePhone,
} from './kit/index.js';

const SELF_ACTION = { message: 'You cannot ban or delete your own account', data: null, errorCode: 'USER_SELF_ACTION' };
const NOT_FOUND = { message: 'User not found', data: null, errorCode: 'USER_NOT_FOUND' };

/** Contract §11, identity's step of the erasure: one transaction, then two events. */
describe('POST /api/users/:publicId/erasure (contract §11)', () => {
  const identity = identitySuite();
  let admin: { user: User; token: string };
  let broker: TestBroker;
  let tap: string;

  beforeAll(async () => {
    const user = await createAccount(identity, { role: 'admin' });
    admin = { user, token: await signedInAccessToken(identity, user) };
    broker = await TestBroker.connect(identity.brokerPrefix);
    tap = await broker.tap('identity.*');
  });

  afterAll(async () => {
    await broker?.close();
  });

  const erase = (publicId: string, token = admin.token) => identity.request('POST', `/api/users/${publicId}/erasure`, undefined, token);
  const published = async (type: string) => (await broker.drain(tap)).filter((message) => message.fields.routingKey === type);

  it('refuses the caller’s own account first: 409 USER_SELF_ACTION; unknown ids are 404 USER_NOT_FOUND', async () => {
    expect(await erase(admin.user.publicId)).toEqual({ status: 409, body: SELF_ACTION });
    expect(await erase(admin.user.publicId.toUpperCase())).toEqual({ status: 409, body: SELF_ACTION });
    expect(await erase('0190b6a4-0000-7000-8000-000000000000')).toEqual({ status: 404, body: NOT_FOUND });
    expect(await erase('not-a-uuid')).toEqual({ status: 404, body: NOT_FOUND });
    const customer = await createAccount(identity);
    expect((await erase(customer.publicId, await signedInAccessToken(identity, customer))).status).toBe(403);
  });

  it('deletes every row of the account and its messages, revokes its sessions, and frees its email and phone', async () => {
    const phone = uniquePhone();
    const user = await createAccount(identity, { phone, phoneVerified: true });
    const tokens = await signIn(identity, user);
    await invite(identity, user);
    const { inviteUrl } = await lastEventOf(identity, EVENT_TYPES.invitationCreated, user.publicId);
    expect((await identity.request('POST', '/api/mobile/auth/password/forgot', { email: user.email })).status).toBe(200);
    await serveMessageRequests(identity);
    // A forgot taken but not served yet: it must send nothing afterwards.
    expect((await identity.request('POST', '/api/mobile/auth/password/forgot', { email: user.email })).status).toBe(200);

    expect(await erase(user.publicId)).toEqual({ status: 200, body: { message: 'User erased', data: null, errorCode: null } });

    expect(await identity.prisma.user.findUnique({ where: { id: user.id } })).toBeNull();
    expect(await identity.prisma.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await identity.prisma.verificationCredential.count({ where: { userId: user.id } })).toBe(0);
    expect(await identity.prisma.providerAccount.count({ where: { userId: user.id } })).toBe(0);
    // A request the worker was serving at that instant is skipped by the erasure, then deleted by the worker having found no account.
    await waitFor(async () => (await identity.prisma.messageRequest.count({ where: { email: user.email } })) === 0 || undefined, {
      what: 'no forgot request of the erased email left',
    });
    const remaining = await recordedEvents(identity);
    expect(remaining.filter((event) => JSON.stringify(event.payload).includes(user.email) && event.type !== EVENT_TYPES.accountDeletedNotice)).toEqual([]);
    expect(remaining.filter((event) => event.payload['userId'] === user.publicId && event.type !== EVENT_TYPES.userErased)).toEqual([]);

    expect((await identity.request('GET', `${AUTH_PREFIX.mobile}/me`, undefined, tokens.accessToken)).status).toBe(401);
    expect(await refresh(identity, 'mobile', tokens.refreshToken)).toMatchObject({ status: 401, body: { errorCode: 'AUTH_REFRESH_TOKEN_INVALID' } });
    expect(await logIn(identity, user)).toMatchObject({ status: 401, body: { errorCode: 'AUTH_INVALID_CREDENTIALS' } });
    expect((await identity.request('POST', '/api/mobile/auth/password/reset', { token: tokenOf(inviteUrl), password: 'N3w!Brass-Kettle' })).status).toBe(400);
    expect(await identity.request('GET', `/api/users/${user.publicId}`, undefined, admin.token)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await identity.request('GET', `/api/users/${user.publicId}/sessions`, undefined, admin.token)).toEqual({ status: 404, body: NOT_FOUND });
    expect(await erase(user.publicId)).toEqual({ status: 404, body: NOT_FOUND });

    const before = (await recordedEvents(identity)).length;
    expect((await identity.request('POST', '/api/mobile/auth/password/forgot', { email: user.email })).status).toBe(200);
    await serveMessageRequests(identity);
    expect((await recordedEvents(identity)).length).toBe(before);

    const again = await identity.request('POST', '/api/users', { email: user.email, name: 'Someone New', role: 'customer', phone }, admin.token);
    expect(again.status).toBe(201);
  });

  it('publishes identity.user_erased with the email digest and the goodbye notice, then deletes both rows', async () => {
    const user = await createAccount(identity, { email: 'Erase.Me.' + Date.now() + '@Example.com' });
    expect((await erase(user.publicId)).status).toBe(200);

    const erased = await waitFor(async () => (await published(EVENT_TYPES.userErased)).find((message) => message.content.toString().includes(user.publicId)), {
      what: 'identity.user_erased',
    });
    expect(JSON.parse(erased.content.toString())).toEqual({ version: 1, userId: user.publicId, erasedAt: expect.any(String), emailDigest: emailDigest(user.email) });
    await waitFor(async () => (await recordedEvents(identity, [EVENT_TYPES.userErased, EVENT_TYPES.accountDeletedNotice])).length === 0, {
      what: 'the rows deleted once published',
    });
  });

  it('records user.erase, and the audit entries that target the account keep no personal field of it (contract §13)', async () => {
    const email = `audited.${Date.now()}@example.com`;
    const created = await identity.request('POST', '/api/users', { email, name: 'Audited Person', role: 'customer', phone: uniquePhone() }, admin.token);
    expect(created.status).toBe(201);
    const { publicId } = created.body.data as { publicId: string };
    const audited = async () =>
      (await recordedEvents(identity, [EVENT_TYPES.auditEntryRecorded])).filter((event) => (event.payload['target'] as { id?: string } | null)?.id === publicId);
    expect(JSON.stringify(await audited())).toContain(email);

    expect((await erase(publicId)).status).toBe(200);
    const entries = await audited();
    expect(entries.map((entry) => entry.payload['action']).sort()).toEqual(['user.create', 'user.erase']);
    expect(JSON.stringify(entries)).not.toMatch(/Audited Person|audited\./);
    expect(entries.find((entry) => entry.payload['action'] === 'user.erase')?.payload['changes']).toEqual({});
  });

  it('erases a soft-deleted account too', async () => {
    const user = await createAccount(identity);
    expect((await identity.request('DELETE', `/api/users/${user.publicId}`, undefined, admin.token)).status).toBe(200);
    expect((await erase(user.publicId)).status).toBe(200);
    expect(await identity.prisma.user.findUnique({ where: { id: user.id } })).toBeNull();
  });
});
