import { randomBytes } from 'node:crypto';
import { ADMIN, call, login, Tally } from '../proof/client.mjs';

/**
 * Deleting an unreferenced province needs identity's word that no address names it: with identity
 * stopped the delete answers 503 and deletes nothing; once identity is back it goes through.
 */
export const identityDown = {
  name: 'identity-down',
  title: 'identity down: geography deletes answer 503 and delete nothing',
  async run(system, options, log) {
    const base = system.gatewayUrl;
    const { accessToken: token } = await login(base, ADMIN);
    const provinces = [];
    for (let n = 0; n < 3; n += 1) {
      const created = await call(base, 'POST', '/api/lookups/provinces', { token, body: { name: `Proof ${randomBytes(4).toString('hex')}` } });
      if (created.status !== 201) throw new Error(`creating a province answered ${created.status} ${created.errorCode}`);
      provinces.push(created.body.data);
    }
    const present = async () => {
      const list = await call(base, 'GET', '/api/lookups/provinces?includeInactive=true', { token });
      return provinces.filter((province) => list.body?.data?.some((row) => row.publicId === province.publicId)).length;
    };
    log(`created ${provinces.length} unreferenced provinces; stopping identity (pid ${system.pids().identity})`);
    await system.stop('identity');
    const whileDown = new Tally();
    for (const province of provinces) whileDown.add(await call(base, 'DELETE', `/api/lookups/provinces/${province.publicId}`, { token }));
    const remaining = await present();
    log(`DELETE of each while identity is down: ${whileDown}; ${remaining} of ${provinces.length} still listed`);
    await system.restart('identity');
    log('identity started again');
    const afterwards = new Tally();
    for (const province of provinces) afterwards.add(await call(base, 'DELETE', `/api/lookups/provinces/${province.publicId}`, { token }));
    const left = await present();
    log(`DELETE of each after the restart: ${afterwards}; ${left} still listed`);
    return {
      counts: { sent: whileDown.sent + afterwards.sent, '503': whileDown.unavailable, other5xx: whileDown.serverErrors + afterwards.serverErrors, deletedWhileDown: provinces.length - remaining, deletedAfter: remaining - left },
      checks: [
        ['every delete while identity is down answered 503', whileDown.unavailable === provinces.length],
        ['nothing was deleted while identity was down', remaining === provinces.length],
        ['every delete went through once identity was back', afterwards.ok === provinces.length && left === 0],
      ],
    };
  },
};
