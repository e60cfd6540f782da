// An SMTP server in the bench process that accepts every mail and hands the start of each (its
// headers and the first lines of its body) to `onMail`: the mailbox of the product and of a ceiling alike.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

/** How much of each mail `onMail` sees. */
const HEAD_CHARS = 4096;

export async function startSmtpSink(onMail: (head: string) => void): Promise<SmtpSink> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < HEAD_CHARS) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        onMail(head);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
