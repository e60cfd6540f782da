import { describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { UnitOfWork } from '@school/service';
import { EmailVerificationService } from '../src/credentials/email-verification/email-verification.service.js';
import { PasswordResetService } from '../src/credentials/password-reset/password-reset.service.js';
import type { User } from '../src/generated/prisma/client.js';
import { countEventsOf, createAccount, identitySuite, invite, lastEventOf, NEW_PASSWORD, PASSWORD, serveMessageRequests, tokenOf } from './kit/index.js';

const RESET = '/api/auth/password/reset';

describe('credential redemption under concurrency', () => {
  const identity = identitySuite();

  const post = (path: string, body: unknown) => identity.request('POST', path, body);
  const credentialsOf = (user: User) => identity.prisma.verificationCredential.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });

  async function forgot(user: User) {
    expect((await post('/api/auth/password/forgot', { email: user.email })).status).toBe(200);
    await serveMessageRequests(identity);
    const event = await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId);
    if (event.delivery.channel !== 'email') throw new Error('expected an email delivery');
    return { token: tokenOf(event.delivery.resetUrl), otp: event.otp };
  }

  it('lets exactly one of many simultaneous redemptions of one link succeed', async () => {
    const user = await createAccount(identity);
    const { token } = await forgot(user);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(RESET, { token, password: NEW_PASSWORD })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.errorCode === 'AUTH_VERIFICATION_CODE_INVALID')).toHaveLength(7);
    const changed = await countEventsOf(identity, [EVENT_TYPES.passwordChanged], user.publicId);
    expect(changed).toBe(1);
  });

  it('lets one of a link and its code redeemed at the same time succeed', async () => {
    const user = await createAccount(identity);
    const { token, otp } = await forgot(user);
    const answers = await Promise.all([post(RESET, { token, password: NEW_PASSWORD }), post(RESET, { email: user.email, otp, password: NEW_PASSWORD })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
  });

  it('lets one of an invitation and a reset redeemed at the same time succeed, retiring the other', async () => {
    const user = await createAccount(identity, { password: null });
    await invite(identity, user);
    const inviteToken = tokenOf((await lastEventOf(identity, EVENT_TYPES.invitationCreated, user.publicId)).inviteUrl);
    const { token } = await forgot(user);
    const answers = await Promise.all([post(RESET, { token: inviteToken, password: PASSWORD }), post(RESET, { token, password: PASSWORD })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const states = (await credentialsOf(user)).map((credential) => (credential.redeemedAt ? 'redeemed' : credential.retiredAt ? 'retired' : 'live'));
    expect(states.sort()).toEqual(['redeemed', 'retired']);
  });

  it('counts every one of simultaneous wrong codes, up to the five that retire the credential', async () => {
    const user = await createAccount(identity);
    const { otp } = await forgot(user);
    const wrong = otp === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(RESET, { email: user.email, otp: wrong, password: NEW_PASSWORD })));
    for (const answer of answers) expect(answer.body.errorCode).toBe('AUTH_VERIFICATION_CODE_INVALID');
    const [credential] = await credentialsOf(user);
    expect(credential).toMatchObject({ attempts: 5, retiredAt: expect.any(Date) });
    expect((await post(RESET, { email: user.email, otp, password: NEW_PASSWORD })).status).toBe(400);
  });

  it('never leaves two live resets, nor sends more than five messages an hour, when replicas serve requests for one account at once', async () => {
    const user = await createAccount(identity);
    const passwordReset = identity.app.get(PasswordResetService);
    const emailVerification = identity.app.get(EmailVerificationService);
    const unitOfWork = identity.app.get(UnitOfWork);
    // What the workers of several replicas do when each claims one of the person's requests.
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        unitOfWork.run((tx) => (index % 2 === 0 ? passwordReset.sendReset(tx, { by: 'email', email: user.email }) : emailVerification.sendLink(tx, user.email))),
      ),
    );
    const credentials = await credentialsOf(user);
    expect(credentials).toHaveLength(5);
    const live = credentials.filter((credential) => credential.retiredAt === null);
    expect(live.filter((credential) => credential.purpose === 'password_reset').length).toBeLessThanOrEqual(1);
    expect(live.filter((credential) => credential.purpose === 'email_verification').length).toBeLessThanOrEqual(1);
    const messages = await countEventsOf(identity, [EVENT_TYPES.passwordResetRequested, EVENT_TYPES.emailVerificationRequested], user.publicId);
    expect(messages).toBe(5);
  });
});
