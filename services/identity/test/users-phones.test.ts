import { beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import type { User } from '../src/generated/prisma/client.js';
import { createAccount, identitySuite, lastEventOf, signedInAccessToken, uniqueEmail, uniquePhone } from './kit/index.js';

const PHONE_TAKEN = { message: 'Phone number is already in use', data: null, errorCode: 'USER_PHONE_TAKEN' };

describe('phone numbers are unique among live accounts (contract §4, §6)', () => {
  const identity = identitySuite();
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await signedInAccessToken(identity, await createAccount(identity, { role: 'admin' }));
  });

  const call = (method: string, path: string, body?: unknown, token = adminToken) => identity.request(method, path, body, token);
  const createUser = (phone: string, email = uniqueEmail('phone')) => call('POST', '/api/users', { email, name: 'Phone Person', role: 'staff', phone });
  const phoneOf = async (user: User) => (await identity.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).phone;

  describe('POST and PATCH /api/users', () => {
    it('refuses a number another live account holds, verified or not: 409 USER_PHONE_TAKEN', async () => {
      const holder = await createAccount(identity, { phone: uniquePhone() });
      expect(await createUser(holder.phone!)).toEqual({ status: 409, body: PHONE_TAKEN });

      const other = await createAccount(identity);
      expect(await call('PATCH', `/api/users/${other.publicId}`, { phone: holder.phone })).toEqual({ status: 409, body: PHONE_TAKEN });
      expect(await phoneOf(other)).toBeNull();
    });

    it("keeps an account's own number, frees the number of a soft-deleted account, and allows no phone", async () => {
      const holder = await createAccount(identity, { phone: uniquePhone() });
      expect((await call('PATCH', `/api/users/${holder.publicId}`, { phone: holder.phone, name: 'Same Number' })).status).toBe(200);

      await identity.prisma.user.update({ where: { id: holder.id }, data: { deletedAt: new Date() } });
      expect((await createUser(holder.phone!)).status).toBe(201);
      expect((await call('POST', '/api/users', { email: uniqueEmail('nophone'), name: 'No Phone', role: 'customer' })).status).toBe(201);
      expect((await call('POST', '/api/users', { email: uniqueEmail('nophone'), name: 'No Phone', role: 'customer' })).status).toBe(201);
    });

    it('lets only one of two concurrent creates with one number win; the index settles it', async () => {
      const phone = uniquePhone();
      const answers = await Promise.all([createUser(phone), createUser(phone), createUser(phone)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
      for (const refused of answers.filter((answer) => answer.status === 409)) expect(refused.body).toEqual(PHONE_TAKEN);
      expect(await identity.prisma.user.count({ where: { phone, deletedAt: null } })).toBe(1);
    });

    it('lets only one of two concurrent patches giving two accounts one number win', async () => {
      const phone = uniquePhone();
      const first = await createAccount(identity);
      const second = await createAccount(identity);
      const answers = await Promise.all([first, second].map((user) => call('PATCH', `/api/users/${user.publicId}`, { phone })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body).toEqual(PHONE_TAKEN);
      expect(await identity.prisma.user.count({ where: { phone, deletedAt: null } })).toBe(1);
    });
  });

  describe('phone verification (JWT)', () => {
    const requestCode = (token: string, phone: string) => identity.request('POST', '/api/auth/phone/verify/request', { phone }, token);
    const confirm = (token: string, phone: string, otp: string) => identity.request('POST', '/api/auth/phone/verify/confirm', { phone, otp }, token);

    it('refuses to send a code for a number another live account holds, and sends none', async () => {
      const holder = await createAccount(identity, { phone: uniquePhone() });
      const caller = await createAccount(identity, { role: 'staff' });
      const token = await signedInAccessToken(identity, caller);
      expect(await requestCode(token, holder.phone!)).toEqual({ status: 409, body: PHONE_TAKEN });
      expect(await identity.prisma.verificationCredential.count({ where: { userId: caller.id, purpose: 'phone_verification' } })).toBe(0);
    });

    it('lets the holder verify its own number', async () => {
      const holder = await createAccount(identity, { role: 'staff', phone: uniquePhone() });
      const token = await signedInAccessToken(identity, holder);
      expect((await requestCode(token, holder.phone!)).status).toBe(200);
      const { otp } = await lastEventOf(identity, EVENT_TYPES.phoneVerificationRequested, holder.publicId);
      expect((await confirm(token, holder.phone!, otp)).status).toBe(200);
      expect((await identity.prisma.user.findUniqueOrThrow({ where: { id: holder.id } })).phoneVerifiedAt).not.toBeNull();
    });

    it('refuses to confirm a number another account took after the code was sent; the code stays unspent', async () => {
      const caller = await createAccount(identity, { role: 'staff' });
      const token = await signedInAccessToken(identity, caller);
      const phone = uniquePhone();
      expect((await requestCode(token, phone)).status).toBe(200);
      const { otp } = await lastEventOf(identity, EVENT_TYPES.phoneVerificationRequested, caller.publicId);

      const taker = await createAccount(identity);
      expect((await call('PATCH', `/api/users/${taker.publicId}`, { phone })).status).toBe(200);
      expect(await confirm(token, phone, otp)).toEqual({ status: 409, body: PHONE_TAKEN });
      expect(await phoneOf(caller)).toBeNull();
      const credential = await identity.prisma.verificationCredential.findFirstOrThrow({ where: { userId: caller.id, purpose: 'phone_verification' } });
      expect(credential).toMatchObject({ redeemedAt: null, attempts: 0 });

      // Once the number is free again the same code still confirms it.
      expect((await call('PATCH', `/api/users/${taker.publicId}`, { phone: null })).status).toBe(200);
      expect((await confirm(token, phone, otp)).status).toBe(200);
      expect(await phoneOf(caller)).toBe(phone);
    });

    it('maps the index violation of a confirm that loses the race to 409, and keeps one holder', async () => {
      const phone = uniquePhone();
      const callers = await Promise.all([0, 1].map(() => createAccount(identity, { role: 'staff' })));
      const tokens = await Promise.all(callers.map((caller) => signedInAccessToken(identity, caller)));
      const otps: string[] = [];
      for (const [index, caller] of callers.entries()) {
        expect((await requestCode(tokens[index]!, phone)).status).toBe(200);
        otps.push((await lastEventOf(identity, EVENT_TYPES.phoneVerificationRequested, caller.publicId)).otp);
      }
      const answers = await Promise.all(callers.map((_, index) => confirm(tokens[index]!, phone, otps[index]!)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body).toEqual(PHONE_TAKEN);
      expect(await identity.prisma.user.count({ where: { phone, deletedAt: null } })).toBe(1);
    });
  });
});
