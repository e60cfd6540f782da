import { setTimeout as sleep } from 'node:timers/promises';
import { awaitMails, call, until } from '../proof/client.js';
import { tagPrefix } from './burst.js';
import { proxyOf, type Scenario } from './scenario.js';
import { adminSession, keepSendingInTurn, mailedOnce, onlyUnavailable, taggedGuestFeedback, trafficCounts } from './traffic.js';

/** Every PostgreSQL connection of every service is dropped, and new ones refused, for a while. */
export const postgresCut: Scenario = {
  name: 'postgres-cut',
  title: 'PostgreSQL connections terminated: requests fail with 503 and recover',
  async run(system, options, log) {
    const { base, token } = await adminSession(system);
    const accepted: string[] = [];
    const routes = [
      () => call(base, 'GET', '/api/users', { token }),
      () => call(base, 'GET', '/api/lookups/provinces', { token }),
      taggedGuestFeedback(base, tagPrefix('postgres'), accepted),
    ];
    const traffic = keepSendingInTurn(options.concurrency, routes);
    await sleep(500);
    log(`PostgreSQL cut (${proxyOf(system, 'postgres').connectionCount / 2} connections terminated, new ones refused) for ${options.outageMs / 1000} s`);
    await proxyOf(system, 'postgres').cut();
    await sleep(options.outageMs);
    await proxyOf(system, 'postgres').resume();
    log('PostgreSQL restored');
    const allOk = async () => (await Promise.all(routes.slice(0, 2).map((route) => route()))).every((answer) => answer.status === 200);
    const recoveredMs = await until(allOk, 30_000);
    await sleep(500);
    const tally = await traffic.stop();
    log(`reads answer 200 again ${recoveredMs === undefined ? 'NOT within 30 s' : `${(recoveredMs / 1000).toFixed(1)} s after the restore`}`);
    const mails = await awaitMails(system.sink, accepted, 60_000);
    return {
      counts: trafficCounts(tally, mails),
      checks: [
        onlyUnavailable(tally),
        ['requests during the cut answered 503', tally.unavailable > 0],
        ['reads recover within 30 s without restarting anything', recoveredMs !== undefined],
        mailedOnce(mails),
      ],
    };
  },
};
