import { setTimeout as sleep } from 'node:timers/promises';
import { ADMIN, awaitMails, call, guestFeedback, keepSending, login, until } from '../proof/client.js';
import { tagPrefix } from './burst.js';
import { proxyOf, type Scenario } from './scenario.js';

/** Every PostgreSQL connection of every service is dropped, and new ones refused, for a while. */
export const postgresCut: Scenario = {
  name: 'postgres-cut',
  title: 'PostgreSQL connections terminated: requests fail with 503 and recover',
  async run(system, options, log) {
    const base = system.gatewayUrl;
    const { accessToken: token } = await login(base, ADMIN);
    const prefix = tagPrefix('postgres');
    let sequence = 0;
    const accepted: string[] = [];
    const routes = [
      () => call(base, 'GET', '/api/users', { token }),
      () => call(base, 'GET', '/api/lookups/provinces', { token }),
      async () => {
        const tag = `${prefix}-${sequence++}`;
        const answer = await guestFeedback(base, tag);
        if (answer.status === 200) accepted.push(tag);
        return answer;
      },
    ];
    let turn = 0;
    const traffic = keepSending(options.concurrency, () => routes[turn++ % routes.length]!());
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
      counts: {
        sent: tally.sent,
        ok: tally.ok,
        503: tally.unavailable,
        other5xx: tally.serverErrors,
        'mails.expected': mails.expected,
        'mails.delivered': mails.delivered,
        'mails.duplicated': mails.duplicated,
      },
      checks: [
        [`no 5xx other than 503 (${tally.toString()})`, tally.serverErrors === 0],
        ['requests during the cut answered 503', tally.unavailable > 0],
        ['reads recover within 30 s without restarting anything', recoveredMs !== undefined],
        [`accepted guest submissions mailed once (${mails.missing} missing, ${mails.duplicated} duplicates)`, mails.missing === 0 && mails.duplicated === 0],
      ],
    };
  },
};
