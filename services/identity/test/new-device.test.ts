import { describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { AUTH_PREFIX, createAccount, eventsOf, identitySuite, inLanes, login, PASSWORD } from './kit/index.js';

/** Contract §10 on real Postgres: the new-device decision in the login transaction. */
describe('new-device email decision', () => {
  const identity = identitySuite();

  const alerts = (publicId: string) => eventsOf(identity, EVENT_TYPES.newDeviceSignedIn, publicId);

  it('records one event for concurrent first logins from one device, none for a known device', async () => {
    const user = await createAccount(identity);
    const deviceInfo = { deviceId: 'racing-phone', deviceType: 'ios', deviceName: 'Racing phone' };
    const answers = await Promise.all(Array.from({ length: 4 }, () => login(identity, 'mobile', user.email, PASSWORD, { deviceInfo })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(await alerts(user.publicId)).toEqual([
      { userId: user.publicId, email: user.email, name: 'Test Person', deviceId: 'racing-phone', deviceType: 'ios', deviceName: 'Racing phone', signedInAt: expect.any(String) },
    ]);
    expect((await login(identity, 'mobile', user.email, PASSWORD, { deviceInfo })).status).toBe(200);
    expect(await alerts(user.publicId)).toHaveLength(1);
  });

  it('records at most three an hour for one account while logins from new devices race; every login succeeds and its device becomes known', async () => {
    const user = await createAccount(identity);
    const statuses = await inLanes(29, async (at) => {
      // Each from an address of its own: the per-ip throttles are not under test.
      const response = await fetch(`${identity.baseUrl}${AUTH_PREFIX.mobile}/login/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...identity.forwardedFrom(`198.51.100.${at + 1}`) },
        body: JSON.stringify({ email: user.email, password: PASSWORD, deviceInfo: { deviceId: `racer-${at}` } }),
      });
      await response.arrayBuffer();
      return response.status;
    });
    expect(statuses).toEqual(Array.from({ length: 29 }, () => 200));
    expect(await alerts(user.publicId)).toHaveLength(3);
    expect(await identity.prisma.knownDevice.count({ where: { userId: user.id } })).toBe(29);
  });

  it('takes a login without deviceInfo as the empty device, and records nothing for a refused login', async () => {
    const user = await createAccount(identity);
    expect((await login(identity, 'mobile', user.email, 'Wr0ng!pass', { deviceInfo: { deviceId: 'thief' } })).status).toBe(401);
    expect(await alerts(user.publicId)).toEqual([]);
    expect((await login(identity, 'mobile', user.email, PASSWORD)).status).toBe(200);
    expect((await login(identity, 'mobile', user.email, PASSWORD, { deviceInfo: { deviceName: 'no id' } })).status).toBe(200);
    expect(await alerts(user.publicId)).toEqual([expect.objectContaining({ deviceId: null, deviceName: null })]);
  });
});
