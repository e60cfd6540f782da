import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { scaled } from '@school/testing';

/** The notifier's mails of a run: `.eml` files under the system's MAIL_OUTBOX_DIR. */

/** Undoes quoted-printable soft breaks and escapes, enough to read links out of an email. */
export function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export interface Mail {
  subject: string;
  /** The whole message, quoted-printable undone. */
  text: string;
}

/** Every mail written so far to `address`. */
export async function mailsTo(mailDir: string, address: string): Promise<Mail[]> {
  const mails: Mail[] = [];
  for (const file of (await readdir(mailDir)).filter((name) => name.endsWith('.eml'))) {
    const text = decodeQuotedPrintable(await readFile(join(mailDir, file), 'utf8'));
    if (!new RegExp(`^To: .*${address.replace(/[.+]/g, '\\$&')}`, 'im').test(text)) continue;
    mails.push({ subject: /^Subject: (.*)$/im.exec(text)?.[1]?.trim() ?? '', text });
  }
  return mails;
}

/** The token of a link to `path` (e.g. `/accept-invitation`) mailed to `address`, once it has arrived; not one of `seen`. */
export async function linkToken(mailDir: string, address: string, path: string, seen: ReadonlySet<string> = new Set(), timeoutMs = scaled(20_000)): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const mail of await mailsTo(mailDir, address)) {
      const token = new RegExp(`${path}\\?token=([A-Za-z0-9_%-]+)`).exec(mail.text)?.[1];
      if (token && !seen.has(decodeURIComponent(token))) return decodeURIComponent(token);
    }
    await sleep(200);
  }
  throw new Error(`no ${path} link mailed to ${address} within ${timeoutMs / 1000} s`);
}

/** The body of the `type` part of a multipart mail, as the notifier sent it (quoted-printable undone, base64 decoded). */
export function mailPart(mail: Mail, type: 'text/plain' | 'text/html'): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(mail.text)?.[1];
  if (!boundary) throw new Error(`the mail "${mail.subject}" is not multipart`);
  for (const part of mail.text.split(`--${boundary}`)) {
    const [head = '', ...body] = part.split(/\r?\n\r?\n/);
    if (!new RegExp(`^Content-Type: ${type}\\b`, 'im').test(head)) continue;
    const content = body.join('\n\n').trim();
    return /^Content-Transfer-Encoding: base64/im.test(head) ? Buffer.from(content, 'base64').toString('utf8') : content;
  }
  throw new Error(`the mail "${mail.subject}" has no ${type} part`);
}
