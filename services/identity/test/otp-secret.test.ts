import { describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { OtpHasher } from '../src/credentials/credential-secrets.js';
import { CREDENTIALS_OPTIONS, type CredentialsOptions } from '../src/credentials/credentials.config.js';
import { InstallationSecretsRepository } from '../src/credentials/installation-secrets.repository.js';
import { createAccount, identitySuite, lastEventOf, signedInAccessToken, uniquePhone } from './kit/index.js';

/** Contract §9: outside production an unset OTP_SECRET is generated at random once per installation and kept. */
describe('the OTP secret of an installation without OTP_SECRET (contract §9)', () => {
  const identity = identitySuite({ OTP_SECRET: '' });

  it('is generated at random, kept in the identity schema, and keys the stored codes', async () => {
    const [kept] = await identity.prisma.installationSecret.findMany({ where: { name: 'otp' } });
    expect(kept).toMatchObject({ name: 'otp', value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(identity.app.get<CredentialsOptions>(CREDENTIALS_OPTIONS, { strict: false }).otpSecret).toBe(kept!.value);

    const user = await createAccount(identity, { role: 'staff' });
    const phone = uniquePhone();
    const answer = await identity.request('POST', '/api/auth/phone/verify/request', { phone }, await signedInAccessToken(identity, user));
    expect(answer.status).toBe(200);
    const { otp } = await lastEventOf(identity, EVENT_TYPES.phoneVerificationRequested, user.publicId);
    const credential = await identity.prisma.verificationCredential.findFirstOrThrow({ where: { userId: user.id, purpose: 'phone_verification' } });
    expect(credential.otpHash).toBe(new OtpHasher(kept!.value).hash(otp));
  });

  it('is the same for every later start or replica of the installation', async () => {
    const [kept] = await identity.prisma.installationSecret.findMany({ where: { name: 'otp' } });
    const replica = identity.app.get(InstallationSecretsRepository, { strict: false });
    expect(await replica.keep('otp', () => 'another-random-value')).toBe(kept!.value);
  });
});
