// An SMTP server that keeps what it accepts (subject and Message-ID of each message) and can
// refuse on demand with a transient 451, as a mail server that is overloaded or greylisting does.
import { SMTPServer } from 'smtp-server';

export async function startMailSink() {
  const messages = [];
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
      stream.on('data', (chunk) => {
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
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    messages,
    /** Refuses every message with 451 until `accept()`. */
    refuse() {
      refusing = true;
    },
    accept() {
      refusing = false;
    },
    get refusedCount() {
      return refused;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
