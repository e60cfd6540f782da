import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { UnitOfWork } from '@school/service';
import { UsersRepository } from '../../src/accounts/users.repository.js';
import { NEW_DEVICE_ALERT_CAP, NewDeviceAlert } from '../../src/auth/new-device-alert.js';
import type { User } from '../../src/generated/prisma/client.js';
import { type DeviceInfo, SessionsService } from '../../src/sessions/sessions.service.js';
import { inLanes } from '../kit/accounts.js';
import { type IdentityMedium, identityMediumWithSessions, mediumConfig } from './kit.js';

const CLIENT = { ip: '198.51.100.9', userAgent: 'jest' };

/**
 * Contract §10's new-device email against the decision the login transaction makes, on real
 * Postgres: once per device, at most three an hour per account however logins race. That a login
 * makes it, and a refused one does not, is login.medium.test.ts; the route's body, new-device.test.ts.
 */
describe('new-device emails: the decision over its repositories (medium)', () => {
  let world: IdentityMedium;
  let alert: NewDeviceAlert;
  let sessions: SessionsService;
  let unitOfWork: UnitOfWork;

  beforeAll(async () => {
    world = await identityMediumWithSessions('identity_devices_medium', [UsersRepository, NewDeviceAlert], mediumConfig());
    alert = world.get(NewDeviceAlert);
    sessions = world.get(SessionsService);
    unitOfWork = world.get(UnitOfWork);
  });

  afterAll(() => world?.close());

  const account = () => world.prisma.user.create({ data: { publicId: randomUUID(), email: `${randomUUID()}@example.com`, name: 'Device Holder', role: 'customer' } });
  /** A successful login's part of the decision, in a transaction of its own as the login's: its session's opening remembers the device. */
  const signIn = (user: User, device?: DeviceInfo, at = new Date()) =>
    unitOfWork.run(async (tx) => {
      const { deviceIsNew } = await sessions.start(user, 'mobile', device, CLIENT, tx);
      await alert.onLogin(tx, user, device, deviceIsNew, at);
    });
  const alertsTo = async (user: User) => (await world.recorded(EVENT_TYPES.newDeviceSignedIn)).filter((event) => event['userId'] === user.publicId);

  it('emails once for concurrent first logins from one device, with the device as sent, and never for a known device', async () => {
    const user = await account();
    const device = { deviceId: 'racing-phone', deviceType: 'ios', deviceName: 'Racing phone' };
    await inLanes(4, () => signIn(user, device));
    expect(await alertsTo(user)).toEqual([
      { userId: user.publicId, email: user.email, name: 'Device Holder', deviceId: 'racing-phone', deviceType: 'ios', deviceName: 'Racing phone', signedInAt: expect.any(String) },
    ]);
    await signIn(user, device);
    expect(await alertsTo(user)).toHaveLength(1);
  });

  it(`emails at most ${NEW_DEVICE_ALERT_CAP.emails} times an hour while logins from new devices race, yet every device becomes known`, async () => {
    const user = await account();
    await inLanes(29, (at) => signIn(user, { deviceId: `racer-${at}` }));
    expect(await alertsTo(user)).toHaveLength(NEW_DEVICE_ALERT_CAP.emails);
    expect(await world.prisma.knownDevice.count({ where: { userId: user.id } })).toBe(29);
    // An hour on, the window has room again.
    await signIn(user, { deviceId: 'an-hour-later' }, new Date(Date.now() + NEW_DEVICE_ALERT_CAP.windowMs + 60_000));
    expect(await alertsTo(user)).toHaveLength(NEW_DEVICE_ALERT_CAP.emails + 1);
  });

  it('takes a login without a deviceId as the empty device', async () => {
    const user = await account();
    await signIn(user);
    await signIn(user, { deviceName: 'no id' });
    expect(await alertsTo(user)).toEqual([expect.objectContaining({ deviceId: null, deviceName: null })]);
  });
});
