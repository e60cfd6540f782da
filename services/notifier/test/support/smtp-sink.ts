import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  messageId: string;
  raw: string;
  /** Decoded text/plain and text/html parts. */
  text: string;
  html: string;
}

/**
 * An in-process SMTP server collecting what it accepts. `refuse(code)` makes it answer MAIL FROM
 * with that reply code (4xx: try later, 5xx: never) until `accept()`.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  refusals = 0;
  private refusal: { code: number; message: string } | undefined;

  private constructor(private readonly server: SMTPServer) {}

  static async start(): Promise<SmtpSink> {
    let sink!: SmtpSink;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      size: 10 * 1024 * 1024,
      onMailFrom(_address, _session, callback) {
        const refusal = sink.refusal;
        if (!refusal) return callback();
        sink.refusals += 1;
        callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const headers = parseHeaders(raw);
          const parts = decodeParts(raw, headers);
          sink.received.push({
            ...parts,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: headers.get('subject') ?? '',
            messageId: headers.get('message-id') ?? '',
            raw,
          });
          callback();
        });
      },
    });
    sink = new SmtpSink(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return sink;
  }

  get url(): string {
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  refuse(code: number, message = code >= 500 ? 'Mailbox unavailable' : 'Try again later'): void {
    this.refusal = { code, message };
  }

  accept(): void {
    this.refusal = undefined;
  }

  /** Mails whose raw text contains `marker`. */
  matching(marker: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.raw.includes(marker));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function parseHeaders(raw: string): Map<string, string> {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** The text and HTML parts of a multipart/alternative message, transfer-decoded. */
function decodeParts(raw: string, headers: Map<string, string>): { text: string; html: string } {
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [raw];
  const result = { text: '', html: '' };
  for (const part of parts) {
    const [head = '', ...rest] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
    const partHeaders = parseHeaders(`${head}\n\n`);
    const body = rest.join('\n\n');
    const encoding = (partHeaders.get('content-transfer-encoding') ?? '7bit').toLowerCase();
    const decoded =
      encoding === 'quoted-printable'
        ? Buffer.from(
            body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            'latin1',
          ).toString('utf8')
        : encoding === 'base64'
          ? Buffer.from(body, 'base64').toString('utf8')
          : body;
    if ((partHeaders.get('content-type') ?? '').startsWith('text/html')) result.html = decoded;
    else result.text = decoded;
  }
  return result;
}
