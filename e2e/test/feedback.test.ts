import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { clientAddress, invitedPerson } from './support/people.js';
import { sharedSystem } from './support/shared-system.js';
import type { SystemView } from '@school/system-harness';
import { httpClient, scaled } from '@school/testing';

/**
 * Issue 12, feedback through the gateway with the real notifier: one accepted guest submission is
 * one email to SUPPORT_EMAIL and one live event to a Feedback_READ holder; a honeypot one is
 * neither; the guest throttle (5 per hour per ip + device, before validation); the authenticated
 * route with a real customer token.
 */

const SUPPORT_EMAIL = 'support@example.com';
const GUEST = '/api/mobile/feedback/public';
const CUSTOMER = '/api/mobile/feedback';

let system: SystemView;

beforeAll(async () => {
  system = await sharedSystem();
}, 90_000);

/** This suite's one client address: the guest throttles count per ip, and the shared system serves other suites too. */
const CLIENT = clientAddress();

const request = httpClient(() => system.gatewayUrl, { headers: () => ({ 'x-forwarded-for': CLIENT }), retryAfter: true });
const call = (method: string, path: string, body?: unknown, options: { token?: string; device?: string } = {}) =>
  request(method, path, body, options.token, options.device ? { 'x-device-id': options.device } : {});

const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;
const device = () => unique('device');

const guestBody = (subject: string, overrides: Record<string, unknown> = {}) => ({
  name: 'Asha Guest',
  email: 'asha.guest@example.org',
  category: 'bug_report',
  subject,
  message: 'The timetable screen\ncloses at once.',
  ...overrides,
});

/** The emails to the support inbox whose subject carries `marker`. */
async function supportMails(marker: string): Promise<string[]> {
  const mails: string[] = [];
  for (const file of (await readdir(system.mailDir)).filter((name) => name.endsWith('.eml'))) {
    const text = await readFile(join(system.mailDir, file), 'utf8');
    if (new RegExp(`^To: .*${SUPPORT_EMAIL.replace('.', '\\.')}`, 'im').test(text) && new RegExp(`^Subject: .*${marker}`, 'im').test(text)) mails.push(text);
  }
  return mails;
}

async function eventually<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (Date.now() < deadline) {
    const found = await read();
    if (found !== undefined) return found;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A live notification stream through the gateway, recording what it receives. */
async function openStream(token: string): Promise<{ text: () => string; close: () => void }> {
  const controller = new AbortController();
  const response = await fetch(`${system.gatewayUrl}/api/notifications/stream`, {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  let received = '';
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return;
      received += chunk.value;
    }
  })();
  return { text: () => received, close: () => controller.abort() };
}

async function adminToken(): Promise<string> {
  const login = await call('POST', '/api/auth/login/email', { email: 'admin@example.com', password: 'Admin123!' });
  expect(login.status).toBe(200);
  return (login.body.data as { accessToken: string }).accessToken;
}

describe('feedback through the gateway (issue 12)', () => {
  it('one accepted guest submission gives exactly one support email and one live event', async () => {
    const stream = await openStream(await adminToken());
    try {
      const subject = unique('accepted');
      const answer = await call('POST', GUEST, guestBody(subject), { device: device() });
      expect(answer).toMatchObject({ status: 200, body: { data: { status: 'received' }, errorCode: null } });

      const [mail] = await eventually(async () => ((await supportMails(subject)).length > 0 ? supportMails(subject) : undefined), 'the support email');
      expect(mail).toMatch(/asha\.guest@example\.org/);
      expect(mail).not.toMatch(/^To: .*asha\.guest/im);
      await eventually(async () => (stream.text().includes(subject) ? true : undefined), 'the live feedback.submitted event');
      expect(stream.text()).toMatch(/event: feedback\.submitted/);
      // Redelivery or a second consumer would show up as a second copy.
      await sleep(1_500);
      expect(await supportMails(subject)).toHaveLength(1);
      expect(stream.text().split(subject).length - 1).toBe(1);
    } finally {
      stream.close();
    }
  });

  it('a honeypot submission answers the same and sends no email', async () => {
    const accepted = await call('POST', GUEST, guestBody(unique('control')), { device: device() });
    const subject = unique('honeypot');
    const discarded = await call('POST', GUEST, guestBody(subject, { companyWebsite: 'https://spam.example' }), { device: device() });
    expect(discarded).toEqual(accepted);
    await sleep(3_000);
    expect(await supportMails(subject)).toEqual([]);
  });

  it('the 6th guest request of an ip + device pair is 429 with Retry-After, another device passes, and a 400 uses quota', async () => {
    const pair = device();
    const invalid = await call('POST', GUEST, { name: 'x' }, { device: pair });
    expect(invalid).toMatchObject({ status: 400, body: { errorCode: 'VALIDATION_FAILED' } });
    for (let index = 0; index < 4; index += 1) {
      expect((await call('POST', GUEST, guestBody(unique('quota')), { device: pair })).status).toBe(200);
    }
    const sixth = await call('POST', GUEST, guestBody(unique('quota')), { device: pair });
    expect(sixth).toMatchObject({ status: 429, body: { data: null, errorCode: 'RATE_LIMITED' } });
    expect(Number(sixth.retryAfter)).toBeGreaterThan(0);
    expect((await call('POST', GUEST, guestBody(unique('other')), { device: device() })).status).toBe(200);
  });

  it('the authenticated route answers 201 to a customer token, 401 without one, 422 to the guest body', async () => {
    const admin = await adminToken();
    const customer = (await invitedPerson(system, admin, 'customer', 'Cust0mer!Tulip-Gate')).accessToken;

    const subject = unique('signed-in');
    const answer = await call('POST', CUSTOMER, { category: 'feature_request', subject, message: 'Dark mode, please.' }, { token: customer });
    expect(answer).toMatchObject({ status: 201, body: { data: { status: 'received' }, errorCode: null } });
    expect(await call('POST', CUSTOMER, { category: 'feature_request', message: 'x' })).toMatchObject({ status: 401, body: { errorCode: 'AUTH_UNAUTHENTICATED' } });
    expect(await call('POST', CUSTOMER, guestBody(unique('wrong-route')), { token: customer })).toMatchObject({ status: 422, body: { errorCode: 'VALIDATION_FAILED' } });
    const [mail] = await eventually(async () => ((await supportMails(subject)).length > 0 ? supportMails(subject) : undefined), 'the support email');
    expect(mail).toMatch(/Customer account/);
  });
});
