import { setTimeout as sleep } from 'node:timers/promises';
import { ADMIN, awaitMails, call, guestFeedback, login, nextAddress, Tally, until } from '../proof/client.js';
import { tagPrefix } from './burst.js';
import { proxyOf, type Scenario } from './scenario.js';
import { adminSession, keepSendingInTurn, mailedOnce, onlyUnavailable, taggedGuestFeedback, trafficCounts } from './traffic.js';

/**
 * Redis slowed past every deadline, then cut, then restored, while signed-in reads, guest feedback
 * and a revoked session's token keep coming. Revocation fails closed (503), throttles fall back to
 * memory, the list cache to the database; afterwards throttles and caches work again and the
 * revoked session is still refused.
 */
export const redisCut: Scenario = {
  name: 'redis-cut',
  title: 'Redis slowed, cut and restored: throttles and caches recover, revoked sessions stay revoked, no 500 storm',
  async run(system, options, log) {
    const { base, token } = await adminSession(system);
    const revoked = await login(base, ADMIN);
    const logout = await call(base, 'DELETE', '/api/auth/logout', { token: revoked.accessToken });
    const meOf = (bearer: string) => call(base, 'GET', '/api/auth/me', { token: bearer });
    log(`signed in twice; logged one session out (${logout.status}), its token now answers ${(await meOf(revoked.accessToken)).status}`);
    await call(base, 'GET', '/api/academic-sessions', { token });

    const prefix = tagPrefix('redis');
    const accepted: string[] = [];
    const revokedAnswers = new Tally();
    const routes = [
      () => meOf(token),
      () => call(base, 'GET', '/api/academic-sessions', { token }),
      taggedGuestFeedback(base, prefix, accepted),
      async () => revokedAnswers.add(await meOf(revoked.accessToken)),
    ];
    const traffic = keepSendingInTurn(options.concurrency, routes);
    await sleep(500);
    log(`Redis delayed by 1.5 s (past the 0.5 s throttle and 1 s revocation deadlines) for ${options.outageMs / 2000} s`);
    proxyOf(system, 'redis').delay(1_500);
    await sleep(options.outageMs / 2);
    log(`Redis cut for ${options.outageMs / 2000} s`);
    await proxyOf(system, 'redis').cut();
    proxyOf(system, 'redis').delay(0);
    await sleep(options.outageMs / 2);
    await proxyOf(system, 'redis').resume();
    log('Redis restored');
    const recoveredMs = await until(async () => (await meOf(token)).status === 200 && (await call(base, 'GET', '/api/academic-sessions', { token })).status === 200, 30_000);
    await sleep(500);
    const tally = await traffic.stop();
    log(`signed-in reads answer 200 again ${recoveredMs === undefined ? 'NOT within 30 s' : `${(recoveredMs / 1000).toFixed(1)} s after the restore`}`);

    // Throttles: the 6th guest submission from one address within the hour is refused again.
    const address = nextAddress();
    const throttled: number[] = [];
    for (let n = 0; n < 6; n += 1) throttled.push((await guestFeedback(base, `${prefix}-throttle${n}`, address)).status);
    log(`six guest submissions from one address: ${throttled.join(' ')}`);
    // Caches: a session created after the outage is in the next list (the version bump works).
    const name = `Proof ${prefix}`;
    const created = await call(base, 'POST', '/api/academic-sessions', { token, body: { name, startDate: '2031-04-01', endDate: '2032-03-31' } });
    const listed = await call(base, 'GET', `/api/academic-sessions?search=${encodeURIComponent(name)}`, { token });
    const revokedAfter = await meOf(revoked.accessToken);
    const mails = await awaitMails(system.sink, accepted, 90_000);
    return {
      counts: { ...trafficCounts(tally, mails), 'revoked.2xx': revokedAnswers.ok },
      checks: [
        onlyUnavailable(tally),
        [`the revoked session was never let in (${revokedAnswers.toString()}; after: ${revokedAfter.status})`, revokedAnswers.ok === 0 && revokedAfter.status === 401],
        ['signed-in reads recover within 30 s', recoveredMs !== undefined],
        ['throttle counts again: five accepted, the sixth 429', throttled.slice(0, 5).every((status) => status === 200) && throttled[5] === 429],
        [
          `a session created after the outage is listed (create ${created.status}, list ${listed.status} with ${listed.body?.data?.length ?? 0} rows)`,
          created.status === 201 && listed.body?.data?.some((row: { name: string }) => row.name === name) === true,
        ],
        mailedOnce(mails),
      ],
    };
  },
};
