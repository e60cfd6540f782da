import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { inSpan, SpanKind } from '@school/telemetry';

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Stable per notification, so a message sent twice can be recognised as one (`Message-ID`). */
  id: string;
}

export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

export const MAILER = Symbol('MAILER');

/**
 * Lesson 7: the SMTP timeouts add up to three quarters of the job lock (45 s of the default 60 s),
 * so an attempt stuck on a silent server fails and is retried before BullMQ would consider the job
 * stalled and hand it to another worker while the first one might still deliver it.
 */
export function smtpTimeouts(lockMs: number): { dnsTimeout: number; connectionTimeout: number; greetingTimeout: number; socketTimeout: number } {
  const twelfth = lockMs / 12;
  return { dnsTimeout: twelfth, connectionTimeout: 2 * twelfth, greetingTimeout: 2 * twelfth, socketTimeout: 4 * twelfth };
}

function messageId(id: string, from: string): string {
  return `<${id}@${from.split('@')[1] ?? 'localhost'}>`;
}

/** Sends over SMTP_URL with a small connection pool. */
export class SmtpMailer implements Mailer {
  private readonly transport;
  private readonly server: { 'server.address': string; 'server.port': number };

  constructor(
    url: string,
    private readonly from: string,
    maxConnections: number,
    lockMs: number,
  ) {
    this.transport = nodemailer.createTransport({ pool: true, url, maxConnections, ...smtpTimeouts(lockMs) });
    const { hostname, port, protocol } = new URL(url);
    this.server = { 'server.address': hostname, 'server.port': Number(port) || (protocol === 'smtps:' ? 465 : 587) };
  }

  /** In a client span (`smtp send`), child of the job's: the last hop of the trace of the event. */
  async send(email: OutgoingEmail): Promise<void> {
    await inSpan('smtp send', { kind: SpanKind.CLIENT, attributes: this.server }, () =>
      this.transport.sendMail({
        from: this.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: messageId(email.id, this.from),
      }),
    );
  }

  close(): void {
    this.transport.close();
  }
}

/**
 * Development without SMTP_URL: each email becomes `<MAIL_OUTBOX_DIR>/<id>.eml`, written to a
 * temporary name and renamed, so a reader never sees half a file and a retry overwrites.
 */
export class FileMailer implements Mailer {
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  private readonly directory: string;

  constructor(
    directory: string,
    private readonly from: string,
  ) {
    this.directory = resolve(directory);
  }

  async send(email: OutgoingEmail): Promise<void> {
    const info = await this.transport.sendMail({
      from: this.from,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: messageId(email.id, this.from),
    });
    const name = email.id.replace(/[^\w.-]/g, '_');
    await mkdir(this.directory, { recursive: true });
    const target = join(this.directory, `${name}.eml`);
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, info.message as Buffer);
    await rename(temporary, target);
  }

  close(): void {
    this.transport.close();
  }
}
