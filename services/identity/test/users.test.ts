import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { createAccount, identitySuite, login, me, PASSWORD, recordedEvents, refresh, signIn, type TokenPairData, uniqueEmail } from './kit/index.js';

interface ProfileData {
  publicId: string;
  email: string;
  name: string;
  phone: string | null;
  role: string;
  emailVerified: boolean;
  phoneVerified: boolean;
  hasPassword: boolean;
  address: unknown;
  createdAt: string;
}

interface ListBody {
  message: string;
  data: ProfileData[];
  errorCode: null;
  count: number;
  currentPage: number;
  totalPage: number;
}

const UNAUTHENTICATED = { message: 'Authentication required', data: null, errorCode: 'AUTH_UNAUTHENTICATED' };
const FORBIDDEN = { message: 'You do not have permission to perform this action', data: null, errorCode: 'PERMISSION_INSUFFICIENT' };
const NOT_FOUND = { message: 'User not found', data: null, errorCode: 'USER_NOT_FOUND' };
const EMAIL_TAKEN = { message: 'Email is already in use', data: null, errorCode: 'USER_EMAIL_TAKEN' };

/**
 * The users routes on the wire (contract §6): guards, envelopes, validation, the list's paging and
 * search, a ban refused at once, the 404s. The rules of creating, editing and deleting (the email's
 * uniqueness and races, the invitation, an unverified new phone, sessions ended by a role change,
 * soft deletes) are test/medium/users.medium.test.ts.
 */
describe('users admin (contract §6)', () => {
  const identity = identitySuite();
  let adminToken: string;

  beforeAll(async () => {
    adminToken = (await signIn(identity, await createAccount(identity, { role: 'admin' }))).accessToken;
  });

  const call = (method: string, path: string, body?: unknown, token: string | null = adminToken) => identity.request(method, path, body, token ?? undefined);
  const create = (body: Record<string, unknown>) => call('POST', '/api/users', body);

  describe('access', () => {
    const routes = [
      { method: 'POST', path: '/api/users', body: { email: 'x@example.com', name: 'X', role: 'customer' } },
      { method: 'GET', path: '/api/users' },
      { method: 'GET', path: `/api/users/${randomUUID()}` },
      { method: 'PATCH', path: `/api/users/${randomUUID()}`, body: { name: 'Y' } },
      { method: 'DELETE', path: `/api/users/${randomUUID()}` },
    ];

    it.each(routes)('$method $path needs a token: 401', async ({ method, path, body }) => {
      expect(await call(method, path, body, null)).toEqual({ status: 401, body: UNAUTHENTICATED });
      expect(await call(method, path, body, 'forged.token.value')).toEqual({ status: 401, body: UNAUTHENTICATED });
    });

    /** One staff member and one customer for every route: each sign-in costs two argon2id runs. */
    let callers: Promise<[TokenPairData, TokenPairData]> | undefined;
    const signedIn = async (role: 'staff' | 'customer') => signIn(identity, await createAccount(identity, { role }));
    const staffAndCustomer = () => (callers ??= Promise.all([signedIn('staff'), signedIn('customer')]));

    it.each(routes)('$method $path is refused to staff and customers: 403', async ({ method, path, body }) => {
      const [staff, customer] = await staffAndCustomer();
      expect(await call(method, path, body, staff.accessToken)).toEqual({ status: 403, body: FORBIDDEN });
      expect(await call(method, path, body, customer.accessToken)).toEqual({ status: 403, body: FORBIDDEN });
    });
  });

  describe('POST /api/users', () => {
    it('creates an account without password and sends its invitation', async () => {
      const email = uniqueEmail('New.Person').replace('new.person', 'New.Person');
      const answer = await create({ email: `  ${email} `, name: '  Asha Rai ', role: 'staff', phone: '+9779812345678' });
      expect(answer.status).toBe(201);
      const profile = answer.body.data as ProfileData;
      expect(answer.body).toMatchObject({ message: 'User created', errorCode: null });
      expect(profile).toEqual({
        publicId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        email: email.toLowerCase(),
        name: 'Asha Rai',
        phone: '+9779812345678',
        role: 'staff',
        emailVerified: false,
        phoneVerified: false,
        hasPassword: false,
        address: null,
        createdAt: expect.any(String),
      });
      const events = await recordedEvents(identity, [EVENT_TYPES.invitationCreated]);
      expect(events.map((event) => event.payload)).toContainEqual(expect.objectContaining({ userId: profile.publicId, email: email.toLowerCase() }));
    });

    it('refuses an email a live account has, compared case-insensitively: 409 USER_EMAIL_TAKEN', async () => {
      const existing = await createAccount(identity);
      expect(await create({ email: existing.email.toUpperCase(), name: 'Dup', role: 'customer' })).toEqual({ status: 409, body: EMAIL_TAKEN });
    });

    it.each([
      ['no email', { name: 'A', role: 'customer' }, 'email'],
      ['a malformed email', { email: 'nope', name: 'A', role: 'customer' }, 'email'],
      ['no name', { email: 'a@example.com', role: 'customer' }, 'name'],
      ['a blank name', { email: 'a@example.com', name: '   ', role: 'customer' }, 'name'],
      ['a name over 120 characters', { email: 'a@example.com', name: 'n'.repeat(121), role: 'customer' }, 'name'],
      ['an unknown role', { email: 'a@example.com', name: 'A', role: 'root' }, 'role'],
      ['a phone that is not E.164', { email: 'a@example.com', name: 'A', role: 'customer', phone: '9812345678' }, 'phone'],
      ['an E.164 phone over 15 digits', { email: 'a@example.com', name: 'A', role: 'customer', phone: '+1234567890123456' }, 'phone'],
      ['an undeclared field', { email: 'a@example.com', name: 'A', role: 'customer', banned: true }, 'banned'],
    ])('refuses %s: 400 VALIDATION_FAILED', async (_case, body, field) => {
      const answer = await create(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ data: null, errorCode: 'VALIDATION_FAILED' });
      expect(answer.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    });
  });

  describe('GET /api/users', () => {
    let marker: string;
    const made: ProfileData[] = [];

    beforeAll(async () => {
      marker = `lst${Math.random().toString(36).slice(2, 8)}`;
      for (const name of [`${marker} Alpha`, `${marker} Beta`, `${marker} 100% Gamma`, `${marker} under_score`, `${marker} Delta`]) {
        made.push((await create({ email: uniqueEmail(marker), name, role: 'customer' })).body.data as ProfileData);
      }
    });

    const list = async (query: string) => {
      const answer = await call('GET', `/api/users?${query}`);
      return { status: answer.status, body: answer.body as unknown as ListBody };
    };

    it('pages the matches in id order with count, currentPage and totalPage', async () => {
      const first = await list(`search=${marker}&size=2`);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ message: 'Users', errorCode: null, count: 5, currentPage: 1, totalPage: 3 });
      expect(first.body.data.map((user) => user.publicId)).toEqual(made.slice(0, 2).map((user) => user.publicId));
      const last = await list(`search=${marker}&size=2&page=3`);
      expect(last.body).toMatchObject({ count: 5, currentPage: 3, totalPage: 3 });
      expect(last.body.data.map((user) => user.publicId)).toEqual([made[4]!.publicId]);
      const beyond = await list(`search=${marker}&size=2&page=9`);
      expect(beyond.body).toMatchObject({ count: 5, currentPage: 9, totalPage: 3, data: [] });
      expect(first.body.data[0]).toEqual(made[0]);
    });

    it('defaults to page 1 of 20 and can list newest first', async () => {
      const all = await list('');
      expect(all.body).toMatchObject({ currentPage: 1 });
      expect(all.body.data.length).toBeLessThanOrEqual(20);
      const desc = await list(`search=${marker}&order=desc`);
      expect(desc.body.data.map((user) => user.publicId)).toEqual(made.map((user) => user.publicId).reverse());
    });

    it('returns every match with pagination=false', async () => {
      const answer = await list(`search=${marker}&pagination=false&size=2`);
      expect(answer.body).toMatchObject({ count: 5, currentPage: 1, totalPage: 1 });
      expect(answer.body.data).toHaveLength(5);
    });

    it('searches name and email case-insensitively, with % and _ literal', async () => {
      expect((await list(`search=${marker.toUpperCase()}%20ALPHA`)).body.data.map((user) => user.name)).toEqual([`${marker} Alpha`]);
      expect((await list(`search=${encodeURIComponent('100%')}`)).body.data.map((user) => user.name)).toEqual([`${marker} 100% Gamma`]);
      expect((await list(`search=${encodeURIComponent(`${marker} under_`)}`)).body.data.map((user) => user.name)).toEqual([`${marker} under_score`]);
      expect((await list(`search=${encodeURIComponent(`${marker} %`)}`)).body.count).toBe(0);
      expect((await list(`search=${encodeURIComponent(made[1]!.email.toUpperCase())}`)).body.data.map((user) => user.publicId)).toEqual([made[1]!.publicId]);
    });

    it('leaves soft-deleted accounts out, of a search and of the whole list', async () => {
      const everyone = (await list('size=1')).body.count;
      expect(everyone).toBe(await identity.prisma.user.count({ where: { deletedAt: null } }));
      await call('DELETE', `/api/users/${made[3]!.publicId}`);
      expect((await list(`search=${marker}`)).body.count).toBe(4);
      expect((await list('size=1')).body).toMatchObject({ count: everyone - 1, totalPage: everyone - 1 });
    });

    it.each([
      ['page=0', 'page=0'],
      ['page=abc', 'page=abc'],
      ['size=0', 'size=0'],
      ['size=101', 'size=101'],
      ['order=up', 'order=up'],
      ['pagination=maybe', 'pagination=maybe'],
      ['an undeclared parameter', 'unknown=1'],
      ['a repeated parameter', 'page=1&page=2'],
      ['a search over 255 characters', `search=${'s'.repeat(256)}`],
    ])('refuses %s: 400 VALIDATION_FAILED', async (_case, query) => {
      const answer = await list(query);
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
    });
  });

  describe('GET /api/users/:publicId', () => {
    it('answers the profile', async () => {
      const user = await createAccount(identity, { role: 'staff' });
      expect(await call('GET', `/api/users/${user.publicId}`)).toEqual({
        status: 200,
        body: {
          message: 'User',
          errorCode: null,
          data: expect.objectContaining({ publicId: user.publicId, email: user.email, role: 'staff', hasPassword: true }),
        },
      });
    });

    it('answers 404 USER_NOT_FOUND for an unknown, a malformed and a deleted publicId', async () => {
      const gone = await createAccount(identity);
      await identity.prisma.user.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
      for (const publicId of [randomUUID(), 'not-a-uuid', '1', gone.publicId]) {
        expect(await call('GET', `/api/users/${publicId}`)).toEqual({ status: 404, body: NOT_FOUND });
      }
    });
  });

  describe('PATCH /api/users/:publicId', () => {
    it('changes name, phone and role; a new phone is unverified', async () => {
      const user = await createAccount(identity);
      await identity.prisma.user.update({ where: { id: user.id }, data: { phone: '+9779800000000', phoneVerifiedAt: new Date() } });
      const answer = await call('PATCH', `/api/users/${user.publicId}`, { name: 'Renamed', phone: '+9779811111111' });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ message: 'User updated', data: { name: 'Renamed', phone: '+9779811111111', phoneVerified: false, role: 'customer' } });
    });

    it('bans at once: every session of the account ends, login answers 403, unbanning lets it in again', async () => {
      const user = await createAccount(identity);
      const first = await signIn(identity, user);
      const second = await signIn(identity, user);

      const answer = await call('PATCH', `/api/users/${user.publicId}`, { banned: true });
      expect(answer.status).toBe(200);
      for (const pair of [first, second]) {
        expect(await me(identity, 'mobile', pair.accessToken)).toEqual({ status: 401, body: UNAUTHENTICATED });
        expect((await refresh(identity, 'mobile', pair.refreshToken)).status).toBe(401);
      }
      expect((await login(identity, 'mobile', user.email, PASSWORD)).body.errorCode).toBe('AUTH_ACCOUNT_BANNED');
      expect(await identity.prisma.session.count({ where: { userId: user.id, revokedReason: 'ban' } })).toBe(2);

      expect((await call('PATCH', `/api/users/${user.publicId}`, { banned: false })).status).toBe(200);
      expect((await login(identity, 'mobile', user.email, PASSWORD)).status).toBe(200);
    });

    it('answers 404 for an unknown or deleted user and 400 for a bad body', async () => {
      expect(await call('PATCH', `/api/users/${randomUUID()}`, { name: 'X' })).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('PATCH', '/api/users/nope', { name: 'X' })).toEqual({ status: 404, body: NOT_FOUND });
      const user = await createAccount(identity);
      for (const body of [{ email: 'new@example.com' }, { role: 'root' }, { banned: 'yes' }, { phone: '123' }, { name: '' }]) {
        const answer = await call('PATCH', `/api/users/${user.publicId}`, body);
        expect(answer.status).toBe(400);
        expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
      }
    });
  });

  describe('DELETE /api/users/:publicId', () => {
    it('soft-deletes: 200 data null, sessions end, the account is unknown everywhere', async () => {
      const user = await createAccount(identity);
      const pair = await signIn(identity, user);

      expect(await call('DELETE', `/api/users/${user.publicId}`)).toEqual({ status: 200, body: { message: 'User deleted', data: null, errorCode: null } });
      expect(await me(identity, 'mobile', pair.accessToken)).toEqual({ status: 401, body: UNAUTHENTICATED });
      expect((await refresh(identity, 'mobile', pair.refreshToken)).status).toBe(401);
      expect((await login(identity, 'mobile', user.email, PASSWORD)).body.errorCode).toBe('AUTH_INVALID_CREDENTIALS');
      expect(await call('GET', `/api/users/${user.publicId}`)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('DELETE', `/api/users/${user.publicId}`)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await identity.prisma.user.findUnique({ where: { id: user.id } })).toMatchObject({ deletedAt: expect.any(Date) });
    });

    it('answers 404 for an unknown or malformed publicId', async () => {
      expect(await call('DELETE', `/api/users/${randomUUID()}`)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('DELETE', '/api/users/abc')).toEqual({ status: 404, body: NOT_FOUND });
    });
  });
});
