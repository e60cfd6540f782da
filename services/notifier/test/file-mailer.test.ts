import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileMailer } from '../src/email/mailer.js';

describe('FileMailer (no SMTP_URL): .eml files under MAIL_OUTBOX_DIR', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'notifier-mail-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one complete message per notification id; a retry overwrites it', async () => {
    const mailer = new FileMailer(join(dir, 'mail'), 'no-reply@example.com');
    const email = { to: 'a@example.com', subject: 'Hello', html: '<p>Hi</p>', text: 'Hi', id: 'evt-1_email' };
    await mailer.send(email);
    await mailer.send(email);
    mailer.close();
    expect(await readdir(join(dir, 'mail'))).toEqual(['evt-1_email.eml']);
    const raw = await readFile(join(dir, 'mail', 'evt-1_email.eml'), 'utf8');
    expect(raw).toContain('From: no-reply@example.com');
    expect(raw).toContain('To: a@example.com');
    expect(raw).toContain('Message-ID: <evt-1_email@example.com>');
    expect(raw).toContain('Content-Type: text/html');
  });
});
