import type { EmailJob } from '../email-job.js';
import { renderEmail } from './index.js';
import { cutToCharacters } from './layout.js';

const context = { supportEmail: 'help@example.com' };
const expiresAt = '2026-11-22T10:15:00.000Z';

const jobs: EmailJob[] = [
  { template: 'invitation', to: 'a@example.com', data: { userId: 'u', email: 'a@example.com', name: 'Ann', role: 'staff', inviteUrl: 'https://x.test/invite?token=T', expiresAt } },
  { template: 'password_reset', to: 'a@example.com', data: { name: null, otp: '123456', expiresAt, resetUrl: 'https://x.test/reset?token=T' } },
  { template: 'password_changed', to: 'a@example.com', data: { userId: 'u', email: 'a@example.com', name: 'Ann', changedAt: expiresAt } },
  { template: 'email_verification', to: 'a@example.com', data: { userId: 'u', email: 'a@example.com', name: 'Ann', verifyUrl: 'https://x.test/verify?token=T', expiresAt } },
  {
    template: 'new_device_sign_in',
    to: 'a@example.com',
    data: { userId: 'u', email: 'a@example.com', name: 'Ann', deviceId: 'd1', deviceType: 'ios', deviceName: 'Ann <phone>', signedInAt: expiresAt },
  },
  {
    template: 'feedback_submitted',
    to: 'help@example.com',
    data: { id: 'f1', category: 'feature_request', subject: null, message: 'Line one\nLine <two> & "three"', createdAt: expiresAt, from: { type: 'customer', userId: 'c1' } },
  },
  { template: 'recovery_code_used', to: 'a@example.com', data: { userId: 'u', email: 'a@example.com', name: 'Ann', usedAt: expiresAt, recoveryCodesLeft: 9 } },
  { template: 'mfa_disabled', to: 'a@example.com', data: { userId: 'u', email: 'a@example.com', name: null, disabledAt: expiresAt, by: 'admin' } },
];

describe('email templates', () => {
  it.each(jobs.map((job) => [job.template, job] as const))('%s renders a subject, HTML and text', (_name, job) => {
    const email = renderEmail(job, context);
    expect(email.subject.length).toBeGreaterThan(5);
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.html).toMatch(/^<!doctype html>/);
    expect(email.text.trim().length).toBeGreaterThan(20);
  });

  it('puts the link in both parts and the code where one is sent', () => {
    const reset = renderEmail(jobs[1] as EmailJob, context);
    expect(reset.text).toContain('https://x.test/reset?token=T');
    expect(reset.html).toContain('href="https://x.test/reset?token=T"');
    expect(reset.text).toContain('123456');
    expect(reset.html).toContain('123456');
    expect(reset.text).toContain('2026-11-22 10:15 UTC');
    expect(renderEmail(jobs[0] as EmailJob, context).text).not.toMatch(/\b\d{6}\b/); // invitations carry no code
  });

  it('escapes what a sender typed and keeps it verbatim in the text part', () => {
    const email = renderEmail(jobs[5] as EmailJob, context);
    expect(email.html).toContain('Line &lt;two&gt; &amp; &quot;three&quot;');
    expect(email.html).not.toContain('<two>');
    expect(email.text).toContain('> Line <two> & "three"');
    expect(email.subject).toBe('[Feedback] Feature request: Line one Line <two> & "three"');
  });

  it('points the password-changed notice at the support address', () => {
    expect(renderEmail(jobs[2] as EmailJob, context).text).toContain('help@example.com');
  });

  it('names the new device, its type and the time in UTC, and what to do if it was not the holder (contract §10)', () => {
    const email = renderEmail(jobs[4] as EmailJob, context);
    expect(email.subject).toBe('New sign-in to your account');
    for (const part of [email.text, email.html]) {
      expect(part).toContain('ios');
      expect(part).toContain('2026-11-22 10:15 UTC');
      expect(part).toContain('If this was not you');
    }
    expect(email.text).toContain('Ann <phone>');
    expect(email.html).toContain('Ann &lt;phone&gt;');
  });

  it('shows the device’s name and type quoted, cut to 64 characters, never as a link (contract §10)', () => {
    const hostile = { ...(jobs[4] as Extract<EmailJob, { template: 'new_device_sign_in' }>) };
    const name = 'Reset password at https://evil.test';
    const long = `${'a'.repeat(63)}👩‍💻${'b'.repeat(100)}`;
    hostile.data = { ...hostile.data, deviceName: name, deviceType: long };
    const email = renderEmail(hostile, context);

    expect(email.text).toContain(`Device name: "${name}"\n`);
    expect(email.text).toContain(`Device type: "${'a'.repeat(63)}👩‍💻"\n`);
    expect(email.html).not.toMatch(/<a[\s>]/i);
    expect(email.html).not.toContain('https://');
    expect(email.html).not.toContain('evil.test');
    const shown = email.html.replaceAll('&#8288;', '');
    expect(shown).toContain(`<td>&quot;${name}&quot;</td>`);
    expect(shown).toContain(`<td>&quot;${'a'.repeat(63)}👩‍💻&quot;</td>`);
  });

  it('cuts after 64 user-perceived characters, never inside a surrogate pair', () => {
    expect(cutToCharacters('😀'.repeat(70), 64)).toBe('😀'.repeat(64));
    expect(cutToCharacters('short', 64)).toBe('short');
    expect(cutToCharacters(`${'x'.repeat(63)}e\u0301z`, 64)).toBe(`${'x'.repeat(63)}e\u0301`);
  });

  it('says when the login sent no device name or type', () => {
    const anonymous = { ...(jobs[4] as Extract<EmailJob, { template: 'new_device_sign_in' }>) };
    anonymous.data = { ...anonymous.data, deviceId: null, deviceType: null, deviceName: null };
    expect(renderEmail(anonymous, context).text).toContain('Device name: not given');
  });

  it('names two-step sign-in changes in the subjects of contract §12', () => {
    expect(renderEmail(jobs[6] as EmailJob, context).subject).toBe('A recovery code was used');
    const off = renderEmail(jobs[7] as EmailJob, context);
    expect(off.subject).toBe('Two-step sign-in was turned off');
    expect(off.text).toContain('by an administrator');
  });
});
