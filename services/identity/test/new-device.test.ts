import { describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { createAccount, eventsOf, identitySuite, login, PASSWORD } from './kit/index.js';

/**
 * Contract §10 on the wire: the deviceInfo a login sends reaches the new-device decision. The
 * decision's rules (once per device, three an hour under racing logins, the empty device) are
 * test/medium/devices.medium.test.ts; a refused login's, test/medium/login.medium.test.ts.
 */
describe('new-device email decision', () => {
  const identity = identitySuite();

  it('records the event of a first login from a device, as its deviceInfo names it, and none for the next', async () => {
    const user = await createAccount(identity);
    const deviceInfo = { deviceId: 'first-phone', deviceType: 'ios', deviceName: 'First phone' };
    expect((await login(identity, 'mobile', user.email, PASSWORD, { deviceInfo })).status).toBe(200);
    expect((await login(identity, 'mobile', user.email, PASSWORD, { deviceInfo })).status).toBe(200);
    expect(await eventsOf(identity, EVENT_TYPES.newDeviceSignedIn, user.publicId)).toEqual([
      { userId: user.publicId, email: user.email, name: 'Test Person', deviceId: 'first-phone', deviceType: 'ios', deviceName: 'First phone', signedInAt: expect.any(String) },
    ]);
  });
});
