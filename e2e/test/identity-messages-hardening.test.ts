import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sharedSystem } from './support/shared-system.js';
import type { SystemView } from '@school/system-harness';
import { scaled } from '@school/testing';

/**
 * Contract §4 through the gateway: forgot and reset by phone act only on a verified phone, and at
 * most five reset or verification messages requested through the public routes reach one account
 * an hour. The gateway trusts one proxy and every request carries its own X-Forwarded-For, so its
 * per-ip throttles never answer first: what is tested is identity's own rule, which holds whatever
 * the ip.
 */
let system: SystemView;
let adminToken: string;
let client = 0;

beforeAll(async () => {
  system = await sharedSystem();
  const login = await post('/api/auth/login/email', { email: 'admin@example.com', password: 'Admin123!' });
  expect(login.status).toBe(200);
  adminToken = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
}, 90_000);

const STRONG_PASSWORD = 'N3w!Brass-Kettle';
const SUBJECTS = { reset: 'Reset your password', verify: 'Verify your email address', invitation: 'You have been invited to School Commerce' };

/** A POST from an ip of its own (the gateway takes the client ip from X-Forwarded-For). */
function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  client += 1;
  return fetch(`${system.gatewayUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${(client >> 8) & 255}.${client & 255}`, ...headers },
    body: JSON.stringify(body),
  });
}

const uniquePhone = () => `+97798${String(randomBytes(4).readUInt32BE() % 1e8).padStart(8, '0')}`;

/** An account as an administrator creates it: email not verified, phone (when given) not verified. */
async function createCustomer(phone?: string): Promise<{ email: string; phone?: string }> {
  const email = `messages.${randomBytes(4).toString('hex')}@example.com`;
  const created = await post('/api/users', { email, name: 'Message Target', role: 'customer', ...(phone && { phone }) }, { authorization: `Bearer ${adminToken}` });
  expect(created.status).toBe(201);
  return { email, ...(phone && { phone }) };
}

interface Mail {
  subject: string;
  text: string;
}

async function mailsTo(address: string): Promise<Mail[]> {
  const mails: Mail[] = [];
  for (const file of (await readdir(system.mailDir)).filter((name) => name.endsWith('.eml'))) {
    const text = await readFile(join(system.mailDir, file), 'utf8');
    if (!new RegExp(`^To: .*${address.replace(/[.+]/g, '\\$&')}`, 'im').test(text)) continue;
    mails.push({ subject: /^Subject: (.*)$/im.exec(text)?.[1]?.trim() ?? '', text });
  }
  return mails;
}

async function waitForMails(address: string, subjects: string[], count: number, timeoutMs = 30_000): Promise<Mail[]> {
  const deadline = Date.now() + scaled(timeoutMs);
  for (;;) {
    const mails = (await mailsTo(address)).filter((mail) => subjects.includes(mail.subject));
    if (mails.length >= count || Date.now() > deadline) return mails;
    await sleep(200);
  }
}

describe('identity: messages of the public credential routes (contract §4)', () => {
  it('forgot by a phone that is not verified answers 200 and sends nothing; a reset by that phone is 400 AUTH_VERIFICATION_CODE_INVALID', async () => {
    const person = await createCustomer(uniquePhone());

    const byPhone = await post('/api/mobile/auth/password/forgot', { phone: person.phone });
    const byEmail = await post('/api/mobile/auth/password/forgot', { email: person.email });
    expect(byPhone.status).toBe(200);
    expect(await byPhone.json()).toEqual(await byEmail.json());

    // The email was asked for after the phone: once it is here, the phone request was served too.
    const [resetMail] = await waitForMails(person.email, [SUBJECTS.reset], 1);
    expect(resetMail).toBeDefined();
    await sleep(1_500);
    expect(system.logs('notifier')).not.toContain(person.phone);

    const otp = /\b(\d{6})\b/.exec(resetMail!.text)?.[1];
    expect(otp).toBeDefined();
    const byUnverifiedPhone = await post('/api/mobile/auth/password/reset', { phone: person.phone, otp, password: STRONG_PASSWORD });
    expect(byUnverifiedPhone.status).toBe(400);
    expect(await byUnverifiedPhone.json()).toEqual({ message: expect.any(String), data: null, errorCode: 'AUTH_VERIFICATION_CODE_INVALID' });
    // The code was good all along: with the email it resets.
    expect((await post('/api/mobile/auth/password/reset', { email: person.email, otp, password: STRONG_PASSWORD })).status).toBe(200);
  });

  it('sends at most five reset or verification messages to one account an hour, from any ip and either surface; the sixth still answers 200', async () => {
    const target = await createCustomer();
    const bystander = await createCustomer();
    expect(await waitForMails(target.email, [SUBJECTS.invitation], 1)).toHaveLength(1);

    const requests: [string, unknown][] = [
      ['/api/auth/password/forgot', { email: target.email }],
      ['/api/mobile/auth/email/verify/resend', { email: target.email }],
      ['/api/mobile/auth/password/forgot', { email: target.email }],
      ['/api/auth/email/verify/resend', { email: target.email }],
      ['/api/mobile/auth/password/forgot', { email: target.email }],
      ['/api/auth/password/forgot', { email: target.email }],
      ['/api/mobile/auth/email/verify/resend', { email: target.email }],
    ];
    const answers = [];
    for (const [path, body] of requests) {
      const response = await post(path, body);
      answers.push({ path, status: response.status, body: await response.json() });
    }
    // Each route answers alike every time, the capped requests included.
    for (const route of ['/password/forgot', '/email/verify/resend']) {
      const same = answers.filter((answer) => answer.path.endsWith(route));
      for (const answer of same) expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: same[0]!.body });
    }

    // Asked for after all of the above, so served after them: once it is here, so would a sixth be.
    expect((await post('/api/auth/password/forgot', { email: bystander.email })).status).toBe(200);
    expect(await waitForMails(bystander.email, [SUBJECTS.reset], 1)).toHaveLength(1);
    await waitForMails(target.email, [SUBJECTS.reset, SUBJECTS.verify], 6, 3_000);

    const sent = await mailsTo(target.email);
    expect(sent.filter((mail) => mail.subject === SUBJECTS.reset || mail.subject === SUBJECTS.verify)).toHaveLength(5);
    expect(sent.filter((mail) => mail.subject === SUBJECTS.invitation)).toHaveLength(1);
  });
});
