import { EVENT_TYPES } from '@school/contracts';
import type { Transaction } from '@school/service';
import { fakeKnownDevicesRepository, fakeUsersRepository, InMemoryDatabase } from '../../test/fakes/in-memory.js';
import { NEW_DEVICE_ALERT_CAP, NewDeviceAlert } from './new-device-alert.js';

const MINUTE = 60_000;

describe('NewDeviceAlert: at most three emails an hour per account (contract §10)', () => {
  let db: InMemoryDatabase;
  let alert: NewDeviceAlert;

  beforeEach(() => {
    db = new InMemoryDatabase();
    alert = new NewDeviceAlert(fakeKnownDevicesRepository(db), fakeUsersRepository(db), db.outbox);
  });

  const alerted = () => (db.eventsOf(EVENT_TYPES.newDeviceSignedIn) as { deviceId: string }[]).map((event) => event.deviceId);

  it('sends again once the oldest of the hour’s emails is an hour old', async () => {
    const person = db.addUser({ email: 'parent@example.com' });
    const start = Date.parse('2026-11-27T10:00:00Z');
    const signIn = (deviceId: string, minutes: number) => alert.onLogin({} as Transaction, person, { deviceId }, true, new Date(start + minutes * MINUTE));
    await signIn('a', 0);
    await signIn('b', 10);
    await signIn('c', 20);
    await signIn('d', 59);
    expect(alerted()).toEqual(['a', 'b', 'c']);
    await signIn('e', 60);
    await signIn('f', 61);
    expect(alerted()).toEqual(['a', 'b', 'c', 'e']);
    expect(NEW_DEVICE_ALERT_CAP).toEqual({ emails: 3, windowMs: 60 * MINUTE });
  });
});
