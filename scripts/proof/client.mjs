// HTTP traffic of the proof commands: requests through the gateway, guest feedback from distinct
// client addresses, bursts that count answers by kind, and the mails a burst must produce.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { scaled } from '../jest/time-scale.js';

export const ADMIN = { email: 'admin@example.com', password: 'Admin123!' };
const REQUEST_TIMEOUT_MS = 30_000;

/** One request; never throws: a connection failure is status 0. */
export async function call(baseUrl, method, path, { token, body, headers = {} } = {}) {
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(body !== undefined && !(body instanceof FormData) && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }), ...headers },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, body: json, errorCode: json?.errorCode ?? null, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: undefined, errorCode: error.name, ms: performance.now() - started };
  }
}

/** Signs in through the gateway; `surface` is 'admin' or 'mobile'. Throws unless 200. */
export async function login(baseUrl, { email, password }, surface = 'admin') {
  const path = surface === 'admin' ? '/api/auth/login/email' : '/api/mobile/auth/login/email';
  const deviceInfo = { deviceId: `proof-${randomBytes(4).toString('hex')}`, deviceType: 'script', deviceName: 'proof' };
  const answer = await call(baseUrl, 'POST', path, { body: { email, password, deviceInfo }, headers: { 'x-forwarded-for': nextAddress() } });
  if (answer.status !== 200) throw new Error(`login of ${email} answered ${answer.status} ${answer.errorCode}`);
  return answer.body.data;
}

/** A client address no other request of this process uses (10.0.0.0/8), for per-ip throttles. */
const addressBase = randomBytes(3).readUIntBE(0, 3);
let addressCount = 0;
export function nextAddress() {
  const value = (addressBase + addressCount++) % 0x1000000;
  return `10.${value >> 16}.${(value >> 8) & 0xff}.${value & 0xff}`;
}

/** A guest submission whose subject is `tag`: its support email's subject ends with it. */
export function guestFeedback(baseUrl, tag, address = nextAddress()) {
  return call(baseUrl, 'POST', '/api/mobile/feedback/public', {
    headers: { 'x-forwarded-for': address, 'x-device-id': 'proof' },
    body: { name: 'Proof Guest', email: 'proof.guest@example.org', category: 'general_feedback', subject: tag, message: 'Sent by the proof scripts.' },
  });
}

/** Counts answers: `2xx`, `503`, `5xx` (other server errors), `0` (no answer) and every status. */
export class Tally {
  statuses = new Map();
  add(answer) {
    this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
    return answer;
  }
  count(test) {
    return [...this.statuses].filter(([status]) => test(status)).reduce((sum, [, count]) => sum + count, 0);
  }
  get sent() {
    return this.count(() => true);
  }
  get ok() {
    return this.count((status) => status >= 200 && status < 300);
  }
  get unavailable() {
    return this.count((status) => status === 503);
  }
  /** 5xx other than 503, and requests that got no answer at all. */
  get serverErrors() {
    return this.count((status) => status === 0 || (status >= 500 && status !== 503));
  }
  toString() {
    return [...this.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status || 'no answer'}: ${count}`)
      .join(', ');
  }
}

/**
 * Sends `count` guest submissions tagged `<prefix>-<n>` from `concurrency` clients, each pausing
 * `pauseMs` between requests. `tally` and `accepted` may be passed in to watch the burst while it
 * runs (e.g. to inject a fault once a third is sent); `accepted` collects the tags of the 200s,
 * the mails that must arrive.
 */
export async function feedbackBurst(baseUrl, { prefix, count, concurrency = 8, pauseMs = 0, tally = new Tally(), accepted = [] }) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const tag = `${prefix}-${next++}`;
        const answer = tally.add(await guestFeedback(baseUrl, tag));
        if (answer.status === 200) accepted.push(tag);
        if (pauseMs) await sleep(pauseMs);
      }
    }),
  );
  return { tally, accepted };
}

/**
 * How the sink's mails match `tags`: delivered (distinct), duplicated (extra copies), missing, and
 * reissued: extra copies under a new Message-ID (a second notification, not a resend of the first).
 */
export function mailCount(sink, tags) {
  const wanted = new Set(tags);
  const copies = new Map();
  const ids = new Map();
  for (const message of sink.messages) {
    const tag = /([\w.]+-\d+)$/.exec(message.subject)?.[1];
    if (!tag || !wanted.has(tag)) continue;
    copies.set(tag, (copies.get(tag) ?? 0) + 1);
    ids.set(tag, (ids.get(tag) ?? new Set()).add(message.messageId));
  }
  const duplicated = [...copies.values()].reduce((sum, n) => sum + n - 1, 0);
  const reissued = [...ids.values()].reduce((sum, set) => sum + set.size - 1, 0);
  return { expected: wanted.size, delivered: copies.size, duplicated, reissued, missing: wanted.size - copies.size };
}

/** Waits until every tag was mailed (or the time, stretched by the time scale, is up), then a little longer to catch duplicates. */
export async function awaitMails(sink, tags, timeoutMs, settleMs = 2_000) {
  const deadline = Date.now() + scaled(timeoutMs);
  while (mailCount(sink, tags).missing > 0 && Date.now() < deadline) await sleep(250);
  await sleep(settleMs);
  return mailCount(sink, tags);
}

/** Polls `probe` until it returns true; the milliseconds it took, or undefined when the time (stretched by the time scale) ran out. */
export async function until(probe, timeoutMs, intervalMs = 200) {
  const started = Date.now();
  const bound = scaled(timeoutMs);
  while (Date.now() - started < bound) {
    if (await probe()) return Date.now() - started;
    await sleep(intervalMs);
  }
  return undefined;
}

/**
 * Keeps `clients` loops sending requests from `pick()` (a function returning a promise of an
 * answer) until `stop()`; the tally counts every answer, `stop()` resolves once all loops ended.
 */
export function keepSending(clients, pick, tally = new Tally()) {
  let flowing = true;
  const loops = Array.from({ length: clients }, async () => {
    while (flowing) tally.add(await pick());
  });
  return {
    tally,
    async stop() {
      flowing = false;
      await Promise.all(loops);
      return tally;
    },
  };
}
