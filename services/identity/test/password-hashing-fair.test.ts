import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from '@jest/globals';
import { OWASP_HASH_COST } from '../src/passwords/passwords.config.js';
import { createAccount, identitySuite, PASSWORD } from './kit/index.js';

const FLOODING_ADDRESSES = 16;
const LOOPS_PER_ADDRESS = 3;
/** No fixed deadline on a loaded machine: each fresh login waits at most one turn of the flooding addresses. */
const TEST_TIMEOUT_MS = 240_000;

/**
 * Contract §9: while many addresses flood login, a login from another address still answers (no
 * 503): the argon2id queue serves addresses in turn, none holding more than 2 waiting places.
 * The addresses are the client ips the gateway forwards (and signs) in X-Forwarded-For.
 */
describe('a fair password-hash queue (contract §9)', () => {
  // Room for every flooding address's share (16 x 2) and more: without turns, the flood alone fills it,
  // at production's cost per hash (the kit's cheaper one drains the line faster than the flood fills it).
  const identity = identitySuite(
    { PASSWORD_HASH_MAX_WAITING: '40', PASSWORD_HASH_MEMORY_KIB: String(OWASP_HASH_COST.memoryCost), PASSWORD_HASH_TIME_COST: String(OWASP_HASH_COST.timeCost) },
    TEST_TIMEOUT_MS,
  );

  function login(ip: string, email: string, password: string): Promise<number> {
    return fetch(`${identity.baseUrl}/api/auth/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...identity.forwardedFrom(ip) },
      body: JSON.stringify({ email, password }),
    }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });
  }

  it(
    'answers a login from a fresh address with 200 or 401, never 503, during a flood from 16 addresses',
    async () => {
      const user = await createAccount(identity, { role: 'admin' });
      let flooding = true;
      const floodStatuses = new Map<number, number>();
      const loop = async (ip: string) => {
        while (flooding) {
          // A new unknown email each time: a real argon2id verification (the decoy), never a back-off.
          const status = await login(ip, `${randomUUID()}@flood.example`, 'Wr0ng!password');
          floodStatuses.set(status, (floodStatuses.get(status) ?? 0) + 1);
          if (status === 503) await sleep(20);
        }
      };
      const flood = Array.from({ length: FLOODING_ADDRESSES * LOOPS_PER_ADDRESS }, (_, i) => loop(`198.18.0.${(i % FLOODING_ADDRESSES) + 1}`));
      try {
        // Let the flood fill the queue (every loop answered once) before the fresh addresses arrive.
        const answered = () => [...floodStatuses.values()].reduce((sum, count) => sum + count, 0);
        while (answered() < FLOODING_ADDRESSES * LOOPS_PER_ADDRESS) await sleep(50);
        const fresh: number[] = [];
        for (let i = 0; i < 3; i += 1) {
          fresh.push(await login(`203.0.113.${i + 1}`, user.email, i % 2 === 0 ? PASSWORD : 'Wr0ng!password'));
        }
        expect(fresh).toEqual([200, 401, 200]);
      } finally {
        flooding = false;
        await Promise.all(flood);
      }
      // The flood itself was answered, never with a 500.
      expect([...floodStatuses.keys()].every((status) => status === 401 || status === 503)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
