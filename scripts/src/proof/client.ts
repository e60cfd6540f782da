// HTTP traffic of the proof commands: requests through the gateway, guest feedback from distinct
// client addresses, bursts that count answers by kind, and the mails a burst must produce.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { scaled } from '@school/testing';
import type { SunkMail } from './mail-sink.js';

export const ADMIN = { email: 'admin@example.com', password: 'Admin123!' };
const REQUEST_TIMEOUT_MS = 30_000;

/** What a request got: status 0 when no answer came (the error's name is then the errorCode). */
export interface Answer {
  status: number;
  /** The JSON body, when it was JSON. */
  body: any;
  errorCode: string | null;
  ms: number;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Credentials {
  email: string;
  password: string;
}

/** One request; never throws: a connection failure is status 0. */
export async function call(baseUrl: string, method: string, path: string, { token, body, headers = {} }: RequestOptions = {}): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(body !== undefined && !(body instanceof FormData) && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }), ...headers },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, body: json, errorCode: (json?.errorCode as string | undefined) ?? null, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: undefined, errorCode: (error as Error).name, ms: performance.now() - started };
  }
}

/** Signs in through the gateway; `surface` is 'admin' or 'mobile'. Throws unless 200. */
export async function login(baseUrl: string, { email, password }: Credentials, surface: 'admin' | 'mobile' = 'admin'): Promise<any> {
  const path = surface === 'admin' ? '/api/auth/login/email' : '/api/mobile/auth/login/email';
  const deviceInfo = { deviceId: `proof-${randomBytes(4).toString('hex')}`, deviceType: 'script', deviceName: 'proof' };
  const answer = await call(baseUrl, 'POST', path, { body: { email, password, deviceInfo }, headers: { 'x-forwarded-for': nextAddress() } });
  if (answer.status !== 200) throw new Error(`login of ${email} answered ${answer.status} ${answer.errorCode ?? ''}`);
  return answer.body.data;
}

/** A client address no other request of this process uses (10.0.0.0/8), for per-ip throttles. */
const addressBase = randomBytes(3).readUIntBE(0, 3);
let addressCount = 0;
export function nextAddress(): string {
  const value = (addressBase + addressCount++) % 0x1000000;
  return `10.${value >> 16}.${(value >> 8) & 0xff}.${value & 0xff}`;
}

/** A guest submission whose subject is `tag`: its support email's subject ends with it. */
export function guestFeedback(baseUrl: string, tag: string, address = nextAddress()): Promise<Answer> {
  return call(baseUrl, 'POST', '/api/mobile/feedback/public', {
    headers: { 'x-forwarded-for': address, 'x-device-id': 'proof' },
    body: { name: 'Proof Guest', email: 'proof.guest@example.org', category: 'general_feedback', subject: tag, message: 'Sent by the proof scripts.' },
  });
}

/** Counts answers: `2xx`, `503`, `5xx` (other server errors), `0` (no answer) and every status. */
export class Tally {
  readonly statuses = new Map<number, number>();
  add(answer: Answer): Answer {
    this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
    return answer;
  }
  count(test: (status: number) => boolean): number {
    return [...this.statuses].filter(([status]) => test(status)).reduce((sum, [, count]) => sum + count, 0);
  }
  get sent(): number {
    return this.count(() => true);
  }
  get ok(): number {
    return this.count((status) => status >= 200 && status < 300);
  }
  get unavailable(): number {
    return this.count((status) => status === 503);
  }
  /** 5xx other than 503, and requests that got no answer at all. */
  get serverErrors(): number {
    return this.count((status) => status === 0 || (status >= 500 && status !== 503));
  }
  toString(): string {
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
export interface BurstOptions {
  prefix: string;
  count: number;
  concurrency?: number;
  pauseMs?: number;
  tally?: Tally;
  accepted?: string[];
}

export async function feedbackBurst(
  baseUrl: string,
  { prefix, count, concurrency = 8, pauseMs = 0, tally = new Tally(), accepted = [] }: BurstOptions,
): Promise<{ tally: Tally; accepted: string[] }> {
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
export interface MailCount {
  expected: number;
  delivered: number;
  duplicated: number;
  reissued: number;
  missing: number;
}

export function mailCount(sink: { messages: readonly SunkMail[] }, tags: readonly string[]): MailCount {
  const wanted = new Set(tags);
  const copies = new Map<string, number>();
  const ids = new Map<string, Set<string>>();
  for (const message of sink.messages) {
    const tag = /([\w.]+-\d+)$/.exec(message.subject)?.[1];
    if (!tag || !wanted.has(tag)) continue;
    copies.set(tag, (copies.get(tag) ?? 0) + 1);
    ids.set(tag, (ids.get(tag) ?? new Set<string>()).add(message.messageId));
  }
  const duplicated = [...copies.values()].reduce((sum, n) => sum + n - 1, 0);
  const reissued = [...ids.values()].reduce((sum, set) => sum + set.size - 1, 0);
  return { expected: wanted.size, delivered: copies.size, duplicated, reissued, missing: wanted.size - copies.size };
}

/** Waits until every tag was mailed (or the time, stretched by the time scale, is up), then a little longer to catch duplicates. */
export async function awaitMails(sink: { messages: readonly SunkMail[] }, tags: readonly string[], timeoutMs: number, settleMs = 2_000): Promise<MailCount> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (mailCount(sink, tags).missing > 0 && Date.now() < deadline) await sleep(250);
  await sleep(settleMs);
  return mailCount(sink, tags);
}

/** Polls `probe` until it returns true; the milliseconds it took, or undefined when the time (stretched by the time scale) ran out. */
export async function until(probe: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 200): Promise<number | undefined> {
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
export function keepSending(clients: number, pick: () => Promise<Answer>, tally = new Tally()): { tally: Tally; stop(): Promise<Tally> } {
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
