import { Writable } from 'node:stream';
import { createLogger } from './logger.js';
import { REDACTED_SECRET, redactSecrets } from './redact-secrets.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'test', level: 'info' }, stream) };
}

describe('redactSecrets', () => {
  it('returns a line of flat fields as it is', () => {
    const fields = { method: 'GET', url: '/x', statusCode: 200, responseTime: 1.5 };
    expect(redactSecrets(fields)).toBe(fields);
  });

  it('replaces every secret one level down and leaves the caller object untouched', () => {
    const body = { email: 'a@b.c', password: 'P', newPassword: 'N', currentPassword: 'C', refreshToken: 'R', otp: '123456', token: 'T' };
    const fields = { body, other: { name: 'x' } };
    const redacted = redactSecrets(fields);
    expect(redacted).toEqual({
      body: {
        email: 'a@b.c',
        password: REDACTED_SECRET,
        newPassword: REDACTED_SECRET,
        currentPassword: REDACTED_SECRET,
        refreshToken: REDACTED_SECRET,
        otp: REDACTED_SECRET,
        token: REDACTED_SECRET,
      },
      other: { name: 'x' },
    });
    expect(body.password).toBe('P');
    expect(redacted['other']).toBe(fields.other);
  });

  it('redacts the credential headers of req', () => {
    const fields = { req: { method: 'GET', headers: { authorization: 'Bearer x', cookie: 'c=1', accept: '*/*' } } };
    expect(redactSecrets(fields)).toEqual({ req: { method: 'GET', headers: { authorization: REDACTED_SECRET, cookie: REDACTED_SECRET, accept: '*/*' } } });
    expect(fields.req.headers.authorization).toBe('Bearer x');
  });

  it('keeps a top-level field and deeper ones as pino paths `*.password` did', () => {
    const fields = { password: 'top', a: { b: { password: 'deep' } } };
    expect(redactSecrets(fields)).toBe(fields);
  });
});

describe('createLogger redaction', () => {
  it('shadows a secret of a logged error while its message, type and stack still reach the line', () => {
    const { lines, logger } = capture();
    const error = Object.assign(new Error('boom'), { token: 'T', code: 'E1' });
    logger.error({ err: error }, 'failed');
    expect(lines[0]).toMatchObject({ err: { type: 'Error', message: 'boom', token: REDACTED_SECRET, code: 'E1' } });
    expect((lines[0]!['err'] as { stack: string }).stack).toContain('boom');
    expect(error.token).toBe('T');
  });

  it('redacts the bindings of a child logger', () => {
    const { lines, logger } = capture();
    logger.child({ session: { refreshToken: 'R', id: 1 } }).info('bound');
    expect(lines[0]).toMatchObject({ session: { refreshToken: REDACTED_SECRET, id: 1 }, msg: 'bound' });
  });
});
