import { EVENT_TYPES } from '@school/contracts';
import { AuditRecorder } from '@school/messaging';
import {
  fakeKnownDevicesRepository,
  fakeLoginBackoff,
  fakePasswordHasher,
  fakeRevocations,
  fakeSessionsRepository,
  fakeLoginAccountsRepository,
  fakeUsersRepository,
  InMemoryDatabase,
} from '../../../test/fakes/in-memory.js';
import type { SigningKeyService } from '../../keys/signing-key.service.js';
import { MAX_LIVE_SESSIONS } from '../../sessions/live-session-cap.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { NewDeviceAlert } from '../new-device-alert.js';
import type { TwoStepSignIn } from '../../mfa/two-step-sign-in.service.js';
import { Login } from './login.js';

const PASSWORD = 'Str0ng!pass';
const signer = { sign: () => ({ token: 'access-token', expiresAt: new Date('2024-05-01T10:15:00Z') }) } as unknown as SigningKeyService;
/** Two-step sign-in is off for every account here (contract §12 has its own tests). */
const twoStepOff = { isOn: async () => false } as unknown as TwoStepSignIn;
const client = { ip: '203.0.113.7', userAgent: 'spec' };

describe('Login (spec §4.1, §4.2, contract §4)', () => {
  let db: InMemoryDatabase;
  let hashing: { busy?: boolean };
  let service: Login;
  let revocations: ReturnType<typeof fakeRevocations>;

  beforeEach(() => {
    db = new InMemoryDatabase();
    hashing = {};
    revocations = fakeRevocations();
    const sessions = new SessionsService(fakeSessionsRepository(db), signer, revocations, { REFRESH_REUSE_GRACE_SECONDS: 0 });
    const users = fakeUsersRepository(db);
    const newDeviceAlert = new NewDeviceAlert(fakeKnownDevicesRepository(db), users, db.outbox);
    service = new Login(
      fakeLoginAccountsRepository(db),
      fakePasswordHasher(hashing),
      sessions,
      db.unitOfWork,
      newDeviceAlert,
      fakeLoginBackoff(),
      new AuditRecorder(db.outbox),
      twoStepOff,
    );
  });

  const login = (surface: 'admin' | 'mobile', email: string, password = PASSWORD) => service.execute(surface, { email, password }, client);

  it('starts a session on the surface that admits the role, answering the tokens and the profile', async () => {
    const staff = db.addUser({ email: 'staff@example.com', role: 'staff' }, `hashed:${PASSWORD}`);
    const answer = await login('admin', 'STAFF@example.com');
    expect(answer).toMatchObject({ accessToken: 'access-token', tokenType: 'Bearer', user: { publicId: staff.publicId, hasPassword: true } });
    expect(db.sessions).toEqual([expect.objectContaining({ userId: staff.id, surface: 'admin', ip: client.ip })]);
  });

  it('answers the same 401 for an unknown email, no password, a wrong password and a surface the role may not use', async () => {
    db.addUser({ email: 'customer@example.com' }, `hashed:${PASSWORD}`);
    db.addUser({ email: 'invited@example.com' });
    for (const attempt of [
      login('admin', 'nobody@example.com'),
      login('mobile', 'invited@example.com'),
      login('mobile', 'customer@example.com', 'Wr0ng!pass'),
      login('admin', 'customer@example.com'),
    ]) {
      await expect(attempt).rejects.toMatchObject({ code: 'AUTH_INVALID_CREDENTIALS', status: 401 });
    }
    expect(db.sessions).toEqual([]);
  });

  it('tells a banned account so only after its correct password', async () => {
    db.addUser({ email: 'banned@example.com', banned: true }, `hashed:${PASSWORD}`);
    await expect(login('mobile', 'banned@example.com', 'Wr0ng!pass')).rejects.toMatchObject({ code: 'AUTH_INVALID_CREDENTIALS' });
    await expect(login('mobile', 'banned@example.com')).rejects.toMatchObject({ code: 'AUTH_ACCOUNT_BANNED', status: 403 });
  });

  it('answers 503 when the hashing queue is full, for a known or an unknown email alike', async () => {
    db.addUser({ email: 'busy@example.com' }, `hashed:${PASSWORD}`);
    hashing.busy = true;
    await expect(login('mobile', 'busy@example.com')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    await expect(login('mobile', 'nobody@example.com')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  });

  it('ends the least recently used session, like a logout, when a login would pass the cap of 50 live sessions (contract §10)', async () => {
    const person = db.addUser({ email: 'parent@example.com' }, `hashed:${PASSWORD}`);
    for (let session = 0; session < MAX_LIVE_SESSIONS; session += 1) await login('mobile', 'parent@example.com');
    expect(revocations.revoked).toEqual([]);
    const [oldest, next] = db.sessions;
    await login('mobile', 'parent@example.com');
    expect(revocations.revoked).toEqual([oldest!.id]);
    expect(oldest).toMatchObject({ revokedReason: 'over_cap', revokedAt: expect.any(Date) });
    expect(next).toMatchObject({ revokedAt: null });
    expect(db.sessions.filter((row) => row.userId === person.id && row.revokedAt === null)).toHaveLength(MAX_LIVE_SESSIONS);
  });

  describe('new-device email (contract §10)', () => {
    const fromDevice = (email: string, deviceInfo?: { deviceId?: string; deviceType?: string; deviceName?: string }) =>
      service.execute('mobile', { email, password: PASSWORD, ...(deviceInfo && { deviceInfo }) }, client);
    const alerts = () => db.eventsOf(EVENT_TYPES.newDeviceSignedIn);

    it('emails the holder once per device never used before, naming it, and never for a known one', async () => {
      const person = db.addUser({ email: 'parent@example.com', name: 'Pat' }, `hashed:${PASSWORD}`);
      await fromDevice('parent@example.com', { deviceId: 'phone-1', deviceType: 'ios', deviceName: 'Pat’s phone' });
      await fromDevice('parent@example.com', { deviceId: 'phone-1', deviceType: 'ios', deviceName: 'Pat’s phone' });
      expect(alerts()).toEqual([
        { userId: person.publicId, email: 'parent@example.com', name: 'Pat', deviceId: 'phone-1', deviceType: 'ios', deviceName: 'Pat’s phone', signedInAt: expect.any(String) },
      ]);
      await fromDevice('parent@example.com', { deviceId: 'tablet-1' });
      expect(alerts()).toHaveLength(2);
      expect(alerts()[1]).toMatchObject({ deviceId: 'tablet-1', deviceType: null, deviceName: null });
    });

    it('counts a login without a deviceId as the empty device', async () => {
      db.addUser({ email: 'parent@example.com' }, `hashed:${PASSWORD}`);
      await fromDevice('parent@example.com');
      await fromDevice('parent@example.com', { deviceName: 'no id' });
      expect(alerts()).toHaveLength(1);
    });

    it('sends nothing for the first login after a redeemed invitation or reset, and again for the next new device', async () => {
      const person = db.addUser({ email: 'parent@example.com', trustsNextLogin: true }, `hashed:${PASSWORD}`);
      await fromDevice('parent@example.com', { deviceId: 'phone-1' });
      expect(alerts()).toEqual([]);
      expect(db.user(person.id).trustsNextLogin).toBe(false);
      await fromDevice('parent@example.com', { deviceId: 'phone-2' });
      expect(alerts()).toHaveLength(1);
    });

    it('sends at most three an hour to one account; the logins beyond still succeed and their devices become known', async () => {
      db.addUser({ email: 'parent@example.com' }, `hashed:${PASSWORD}`);
      for (let device = 1; device <= 5; device += 1) await fromDevice('parent@example.com', { deviceId: `phone-${device}` });
      expect(alerts()).toEqual(['phone-1', 'phone-2', 'phone-3'].map((deviceId) => expect.objectContaining({ deviceId })));
      expect(db.sessions).toHaveLength(5);
      expect(db.knownDevices.size).toBe(5);
    });

    it('sends nothing for a refused login', async () => {
      db.addUser({ email: 'parent@example.com' }, `hashed:${PASSWORD}`);
      await expect(service.execute('mobile', { email: 'parent@example.com', password: 'Wr0ng!pass', deviceInfo: { deviceId: 'x' } }, client)).rejects.toMatchObject({
        status: 401,
      });
      expect(alerts()).toEqual([]);
      expect(db.knownDevices.size).toBe(0);
    });
  });
});
