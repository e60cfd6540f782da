import { randomBytes } from 'node:crypto';
import { ADMIN, call, login, Tally } from '../proof/client.js';
import type { Scenario } from './scenario.js';
import { adminSession } from './traffic.js';

/**
 * reference-data alone decides whether a geography row is in use (contract §9; identity's committed
 * addresses reach it as events): with identity stopped, deleting unreferenced provinces goes through
 * at once, no call waits on identity, and identity comes back to a system that answers normally.
 */
export const identityDown: Scenario = {
  name: 'identity-down',
  title: 'identity down: geography deletes are decided without it',
  async run(system, options, log) {
    const { base, token } = await adminSession(system);
    const provinces: { publicId: string }[] = [];
    for (let n = 0; n < 3; n += 1) {
      const created = await call(base, 'POST', '/api/lookups/provinces', { token, body: { name: `Proof ${randomBytes(4).toString('hex')}` } });
      if (created.status !== 201) throw new Error(`creating a province answered ${created.status} ${created.errorCode}`);
      provinces.push(created.body.data);
    }
    const present = async () => {
      const list = await call(base, 'GET', '/api/lookups/provinces?includeInactive=true', { token });
      return provinces.filter((province) => list.body?.data?.some((row: { publicId: string }) => row.publicId === province.publicId)).length;
    };
    log(`created ${provinces.length} unreferenced provinces; stopping identity (pid ${system.pids().identity})`);
    await system.stop('identity');
    const whileDown = new Tally();
    for (const province of provinces) whileDown.add(await call(base, 'DELETE', `/api/lookups/provinces/${province.publicId}`, { token }));
    const remaining = await present();
    log(`DELETE of each while identity is down: ${whileDown.toString()}; ${remaining} of ${provinces.length} still listed`);
    await system.restart('identity');
    log('identity started again');
    const relogin = await login(base, ADMIN).then(
      () => true,
      () => false,
    );
    return {
      counts: { sent: whileDown.sent, ok: whileDown.ok, 503: whileDown.unavailable, other5xx: whileDown.serverErrors, deletedWhileDown: provinces.length - remaining },
      checks: [
        ['every delete while identity is down answered 200', whileDown.ok === provinces.length],
        ['every province was deleted while identity was down', remaining === 0],
        ['logins work again once identity is back', relogin],
      ],
    };
  },
};
