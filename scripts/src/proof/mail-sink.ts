// An SMTP server that keeps what it accepts (subject and Message-ID of each message) and can
// refuse on demand with a transient 451, as a mail server that is overloaded or greylisting does.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  subject: string;
  messageId: string;
  to: string;
}

export interface MailSink {
  url: string;
  messages: SunkMail[];
  /** Refuses every message with 451 until `accept()`. */
  refuse(): void;
  accept(): void;
  readonly refusedCount: number;
  close(): Promise<void>;
}

export async function startMailSink(): Promise<MailSink> {
  const messages: SunkMail[] = [];
  let refusing = false;
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (!refusing) return callback();
      refused += 1;
      callback(Object.assign(new Error('4.3.0 Try again later'), { responseCode: 451 }));
    },
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString('utf8');
      });
      stream.on('end', () => {
        messages.push({
          subject: /^Subject: (.*)$/im.exec(head)?.[1]?.trim() ?? '',
          messageId: /^Message-ID: (<[^>]+>)/im.exec(head)?.[1] ?? '',
          to: /^To: (.*)$/im.exec(head)?.[1]?.trim() ?? '',
        });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    messages,
    refuse() {
      refusing = true;
    },
    accept() {
      refusing = false;
    },
    get refusedCount() {
      return refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
