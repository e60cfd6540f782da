import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunningSystem, startSystem } from '@school/system-harness';
import { scaled } from '@school/testing';
import { BOOTSTRAP_ADMIN } from './support/people.js';

/**
 * Issue 31, item 5 (contract §9): while many addresses flood login, a login from another address
 * still answers (no 503) within 3 s. With 40 flooding addresses the hash queue's line
 * (PASSWORD_HASH_MAX_WAITING = 40, its value on 2 cores) is full of their places; a newcomer holding
 * none takes one from a client holding most instead of being refused. Addresses are X-Forwarded-For
 * behind one trusted proxy.
 */

const FLOODING_ADDRESSES = 40;
const LOOPS_PER_ADDRESS = 3;
const FRESH_LOGINS = 4;

let system: RunningSystem;

beforeAll(async () => {
  // The gateway's production upstream deadline: the harness's 5 s would cut the flood's own logins,
  // each waiting its turn among 120, and turn them into retries on top of the work they left behind.
  system = await startSystem({ services: ['identity'], owaspPasswordHashing: true, env: { TRUST_PROXY: '1', PASSWORD_HASH_MAX_WAITING: '40', UPSTREAM_TIMEOUT_MS: '30000' } });
}, 90_000);

afterAll(async () => {
  await system?.shutdown();
});

async function login(ip: string, email: string, password: string): Promise<{ status: number; ms: number; message: string }> {
  const started = performance.now();
  const response = await fetch(`${system.gatewayUrl}/api/auth/login/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });
  const { message } = (await response.json()) as { message: string };
  return { status: response.status, ms: performance.now() - started, message };
}

it('answers a login from a fresh address (200, within 3 s) while 40 addresses flood login', async () => {
  let flooding = true;
  const floodStatuses = new Map<number, number>();
  const loop = async (ip: string) => {
    while (flooding) {
      // A new unknown email each time: a real argon2id verification (the decoy), never the per-email back-off.
      const { status } = await login(ip, `${randomUUID()}@flood.example`, 'Wr0ng!password');
      floodStatuses.set(status, (floodStatuses.get(status) ?? 0) + 1);
      if (status !== 401) await sleep(20);
    }
  };
  const flood = Array.from({ length: FLOODING_ADDRESSES * LOOPS_PER_ADDRESS }, (_, i) => loop(`198.18.1.${(i % FLOODING_ADDRESSES) + 1}`));
  try {
    // The line is full once every loop has been answered once (its next request waits in it).
    const answered = () => [...floodStatuses.values()].reduce((sum, count) => sum + count, 0);
    while (answered() < FLOODING_ADDRESSES * LOOPS_PER_ADDRESS) await sleep(50);
    const fresh: { status: number; ms: number; message: string }[] = [];
    for (let i = 0; i < FRESH_LOGINS; i += 1) fresh.push(await login(`203.0.113.${i + 10}`, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password));
    console.log(`fresh logins during the flood: ${fresh.map(({ status, ms, message }) => `${status} (${message}) in ${Math.round(ms)} ms`).join(', ')}`);
    expect(fresh.map(({ status }) => status)).toEqual(Array.from({ length: FRESH_LOGINS }, () => 200));
    expect(Math.max(...fresh.map(({ ms }) => ms))).toBeLessThan(scaled(3_000));
  } finally {
    flooding = false;
    await Promise.all(flood);
  }
  console.log(`flood answers: ${JSON.stringify(Object.fromEntries(floodStatuses))}`);
  // The flood itself was answered, never with a 500.
  expect([...floodStatuses.keys()].every((status) => [401, 429, 503].includes(status))).toBe(true);
}, 240_000);
