import { EVENT_TYPES, type EventPayload } from '@school/contracts';
import { fakeCredentialsRepository, fakeMessageRequestsRepository, fakeUsersRepository, InMemoryDatabase } from '../../../test/fakes/in-memory.js';
import type { User } from '../../generated/prisma/client.js';
import type { CredentialsOptions } from '../credentials.config.js';
import { CredentialsService } from '../credentials.service.js';
import { PasswordResetService } from './password-reset.service.js';

const OPTIONS: CredentialsOptions = {
  otpSecret: 'unit-test-otp-secret',
  lifetimes: { otpMinutes: 15, inviteDays: 7, emailVerificationHours: 24 },
  publicBaseUrl: 'https://school.test',
  messageRequestsIntervalMs: 1_000,
};

type ResetRequested = EventPayload<typeof EVENT_TYPES.passwordResetRequested>;

describe('PasswordResetService: forgot (spec §4.2 rules 1-3, contract §4)', () => {
  let db: InMemoryDatabase;
  let service: PasswordResetService;

  beforeEach(() => {
    db = new InMemoryDatabase();
    const clock = { now: () => new Date('2024-05-01T10:00:00Z') };
    const users = fakeUsersRepository(db);
    service = new PasswordResetService(
      new CredentialsService(fakeCredentialsRepository(db), users, clock, db.unitOfWork, OPTIONS),
      fakeMessageRequestsRepository(db),
      users,
      db.outbox,
      OPTIONS,
    );
  });

  /** A served forgot by email: the link token and the code of the message. */
  async function forgotByEmail(user: User): Promise<{ token: string; otp: string }> {
    await db.unitOfWork.run((tx) => service.sendReset(tx, { by: 'email', email: user.email }));
    const event = db.eventsOf(EVENT_TYPES.passwordResetRequested).at(-1) as ResetRequested;
    if (event.delivery.channel !== 'email') throw new Error('expected an email');
    return { token: new URL(event.delivery.resetUrl).searchParams.get('token')!, otp: event.otp };
  }

  it('takes a forgot request and nothing more, whether or not the account exists', async () => {
    await service.forgot({ by: 'email', email: 'nobody@example.com' });
    expect(db.messageRequests).toEqual([{ purpose: 'password_reset', by: 'email', email: 'nobody@example.com' }]);
    expect(db.credentials).toEqual([]);
    expect(db.events).toEqual([]);
  });

  it('serves a forgot with one message holding the link and the code, retiring the earlier reset', async () => {
    const user = db.addUser({ email: 'reset.me@example.com' });
    await forgotByEmail(user);
    const { token, otp } = await forgotByEmail(user);
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(otp).toMatch(/^\d{6}$/);
    expect(db.credentials.map((row) => row.retiredAt !== null)).toEqual([true, false]);
  });

  it('sends nothing for a banned account, an unknown one, or an unverified phone', async () => {
    db.addUser({ email: 'banned@example.com', banned: true });
    db.addUser({ email: 'phone@example.com', phone: '+9779800000001' });
    await db.unitOfWork.run(async (tx) => {
      await service.sendReset(tx, { by: 'email', email: 'banned@example.com' });
      await service.sendReset(tx, { by: 'email', email: 'nobody@example.com' });
      await service.sendReset(tx, { by: 'phone', phone: '+9779800000001' });
    });
    expect(db.credentials).toEqual([]);
    expect(db.events).toEqual([]);
  });
});
