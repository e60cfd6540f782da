import { EVENT_TYPES, type EventPayload } from '@school/contracts';
import { AuditRecorder } from '@school/messaging';
import {
  fakeCredentialsRepository,
  fakeLoginBackoff,
  fakeMessageRequestsRepository,
  fakePasswordHasher,
  fakeProviderAccountsRepository,
  fakeRevocations,
  fakeSessionsRepository,
  fakeUsersRepository,
  fakeAccountMatchesRepository,
  InMemoryDatabase,
} from '../../../test/fakes/in-memory.js';
import type { CredentialsOptions } from '../../credentials/credentials.config.js';
import { CredentialsService } from '../../credentials/credentials.service.js';
import type { ResetPasswordBody as ResetPasswordCommand } from '@school/contracts';
import { PasswordResetService } from '../../credentials/password-reset/password-reset.service.js';
import type { User } from '../../generated/prisma/client.js';
import type { SigningKeyService } from '../../keys/signing-key.service.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { ResetPassword } from './reset-password.js';

const OPTIONS: CredentialsOptions = {
  otpSecret: 'unit-test-otp-secret',
  lifetimes: { otpMinutes: 15, inviteDays: 7, emailVerificationHours: 24 },
  publicBaseUrl: 'https://school.test',
  messageRequestsIntervalMs: 1_000,
};
const NEW_PASSWORD = 'N3w!Brass-Kettle';
const MINUTE = 60_000;

type ResetRequested = EventPayload<typeof EVENT_TYPES.passwordResetRequested>;

describe('ResetPassword (spec §4.2 rules 4-7, contract §4)', () => {
  let db: InMemoryDatabase;
  let now: Date;
  let hashing: { busy?: boolean; openAtHash: number[] };
  let revocations: ReturnType<typeof fakeRevocations>;
  let requests: PasswordResetService;
  let service: ResetPassword;

  beforeEach(() => {
    db = new InMemoryDatabase();
    now = new Date('2024-05-01T10:00:00Z');
    hashing = { openAtHash: [] };
    revocations = fakeRevocations();
    const clock = { now: () => now };
    const users = fakeUsersRepository(db);
    const repository = fakeCredentialsRepository(db);
    const hasher = fakePasswordHasher(hashing);
    const hash = hasher.hash.bind(hasher);
    hasher.hash = async (password) => {
      hashing.openAtHash.push(db.open);
      return hash(password);
    };
    const sessions = new SessionsService(fakeSessionsRepository(db), {} as SigningKeyService, revocations, { REFRESH_REUSE_GRACE_SECONDS: 0 });
    const credentials = new CredentialsService(repository, users, clock, db.unitOfWork, OPTIONS);
    requests = new PasswordResetService(credentials, fakeMessageRequestsRepository(db), users, db.outbox, OPTIONS);
    service = new ResetPassword(
      credentials,
      users,
      fakeAccountMatchesRepository(db),
      fakeProviderAccountsRepository(db),
      hasher,
      sessions,
      db.outbox,
      fakeLoginBackoff(),
      new AuditRecorder(db.outbox),
    );
  });

  /** A served forgot by email: the link token and the code of the message. */
  async function forgotByEmail(user: User): Promise<{ token: string; otp: string }> {
    await db.unitOfWork.run((tx) => requests.sendReset(tx, { by: 'email', email: user.email }));
    const event = db.eventsOf(EVENT_TYPES.passwordResetRequested).at(-1) as ResetRequested;
    if (event.delivery.channel !== 'email') throw new Error('expected an email');
    return { token: new URL(event.delivery.resetUrl).searchParams.get('token')!, otp: event.otp };
  }

  const byCode = (otp: string, email: string | undefined, phone?: string): ResetPasswordCommand => ({ branch: 'otp', otp, email, phone, password: NEW_PASSWORD });
  const wrongCode = (otp: string) => (otp === '000000' ? '111111' : '000000');

  it('sets the password by link: verifies the email, ends every session, tells the holder, works once', async () => {
    const user = db.addUser({ email: 'link@example.com' }, 'hashed:Old!passw0rd');
    db.sessions.push({ id: 's1', userId: user.id, revokedAt: null, revokedReason: null } as (typeof db.sessions)[number]);
    const { token } = await forgotByEmail(user);

    await service.execute({ branch: 'token', token, password: NEW_PASSWORD });
    expect(db.passwords.get(user.id)).toBe(`hashed:${NEW_PASSWORD}`);
    expect(db.user(user.id).emailVerifiedAt).toEqual(now);
    expect(revocations.revoked).toEqual(['s1']);
    expect(db.eventsOf(EVENT_TYPES.passwordChanged)).toEqual([{ userId: user.publicId, email: user.email, name: user.name, changedAt: now.toISOString() }]);
    expect(db.user(user.id).trustsNextLogin).toBe(true); // the next login sends no new-device email (contract §10)

    await expect(service.execute({ branch: 'token', token, password: 'An0ther!pass' })).rejects.toMatchObject({ code: 'AUTH_VERIFICATION_CODE_INVALID' });
    expect(db.passwords.get(user.id)).toBe(`hashed:${NEW_PASSWORD}`);
  });

  it('sets the password by code with the email, and retires the link with it (rule 6)', async () => {
    const user = db.addUser({ email: 'code@example.com' });
    const { token, otp } = await forgotByEmail(user);
    await service.execute(byCode(otp, 'CODE@example.com'));
    expect(db.passwords.get(user.id)).toBe(`hashed:${NEW_PASSWORD}`);
    await expect(service.execute({ branch: 'token', token, password: 'An0ther!pass' })).rejects.toMatchObject({ code: 'AUTH_VERIFICATION_CODE_INVALID' });
  });

  it('hashes the new password before the redeeming transaction opens, and not at all for a refused secret', async () => {
    const user = db.addUser({ email: 'hash@example.com' });
    const { otp } = await forgotByEmail(user);
    await expect(service.execute(byCode(wrongCode(otp), user.email))).rejects.toMatchObject({ code: 'AUTH_VERIFICATION_CODE_INVALID' });
    await expect(service.execute({ branch: 'token', token: 'not-a-token', password: NEW_PASSWORD })).rejects.toMatchObject({ code: 'AUTH_VERIFICATION_CODE_INVALID' });
    expect(hashing.openAtHash).toEqual([]);

    await service.execute(byCode(otp, user.email));
    expect(hashing.openAtHash).toEqual([0]);
  });

  it('counts a wrong code against the live reset; the fifth retires it, so the right code then fails', async () => {
    const user = db.addUser({ email: 'attempts@example.com' });
    const { otp } = await forgotByEmail(user);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await expect(service.execute(byCode(wrongCode(otp), user.email))).rejects.toMatchObject({ code: 'AUTH_VERIFICATION_CODE_INVALID' });
    }
    expect(db.credentials[0]).toMatchObject({ attempts: 5, retiredAt: now });
    await expect(service.execute(byCode(otp, user.email))).rejects.toMatchObject({ code: 'AUTH_VERIFICATION_CODE_INVALID' });
    expect(db.passwords.has(user.id)).toBe(false);
  });

  it('refuses a reset older than the code lifetime', async () => {
    const user = db.addUser({ email: 'late@example.com' });
    const { token } = await forgotByEmail(user);
    now = new Date(now.getTime() + 15 * MINUTE + 1);
    await expect(service.execute({ branch: 'token', token, password: NEW_PASSWORD })).rejects.toMatchObject({ code: 'AUTH_VERIFICATION_CODE_INVALID' });
    expect(db.passwords.has(user.id)).toBe(false);
  });

  it('refuses an email and a phone that name different accounts', async () => {
    const byEmail = db.addUser({ email: 'one@example.com' });
    db.addUser({ email: 'two@example.com', phone: '+9779800000002', phoneVerifiedAt: now });
    const { otp } = await forgotByEmail(byEmail);
    await expect(service.execute(byCode(otp, byEmail.email, '+9779800000002'))).rejects.toMatchObject({
      code: 'AUTH_VERIFICATION_CODE_INVALID',
    });
    expect(db.passwords.has(byEmail.id)).toBe(false);
  });

  it('with a full hashing queue answers 503, and leaves the password, the credential and the sessions as they were', async () => {
    const user = db.addUser({ email: 'busy@example.com' }, 'hashed:Old!passw0rd');
    const { token } = await forgotByEmail(user);
    hashing.busy = true;
    await expect(service.execute({ branch: 'token', token, password: NEW_PASSWORD })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(db.passwords.get(user.id)).toBe('hashed:Old!passw0rd');
    expect(db.credentials[0]!.redeemedAt).toBeNull();
    expect(db.eventsOf(EVENT_TYPES.passwordChanged)).toEqual([]);

    hashing.busy = false;
    await service.execute({ branch: 'token', token, password: NEW_PASSWORD });
    expect(db.passwords.get(user.id)).toBe(`hashed:${NEW_PASSWORD}`);
  });

  it('rolls the whole redemption back when an effect fails: no changed password, the credential still live', async () => {
    const user = db.addUser({ email: 'fails@example.com' }, 'hashed:Old!passw0rd');
    const { token } = await forgotByEmail(user);
    const record = db.outbox.record.bind(db.outbox);
    db.outbox.record = async () => {
      throw new Error('outbox unavailable');
    };
    await expect(service.execute({ branch: 'token', token, password: NEW_PASSWORD })).rejects.toThrow('outbox unavailable');
    expect(db.passwords.get(user.id)).toBe('hashed:Old!passw0rd');
    expect(db.credentials[0]!.redeemedAt).toBeNull();

    db.outbox.record = record;
    await service.execute({ branch: 'token', token, password: NEW_PASSWORD });
    expect(db.passwords.get(user.id)).toBe(`hashed:${NEW_PASSWORD}`);
  });
});
