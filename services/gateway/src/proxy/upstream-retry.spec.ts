import { Readable } from 'node:stream';
import { retriesOnce } from './upstream-retry.js';

const failure = (code: string) => Object.assign(new Error(code), { code });

describe('retriesOnce', () => {
  it('sends again, once, a request whose connection never opened, whatever its method', () => {
    for (const code of ['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH']) {
      for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
        expect({ code, method, retried: retriesOnce({ err: failure(code), method, body: method === 'GET' ? undefined : Buffer.from('{}'), attempt: 0 }) }).toEqual({
          code,
          method,
          retried: true,
        });
      }
      expect(retriesOnce({ err: failure(code), method: 'POST', body: Buffer.from('{}'), attempt: 1 })).toBe(false);
    }
  });

  it('sends again a connection closed before any answer only for an idempotent method: a POST may have been processed', () => {
    for (const code of ['UND_ERR_SOCKET', 'ECONNRESET']) {
      expect(retriesOnce({ err: failure(code), method: 'GET', body: undefined, attempt: 0 })).toBe(true);
      expect(retriesOnce({ err: failure(code), method: 'DELETE', body: undefined, attempt: 0 })).toBe(true);
      expect(retriesOnce({ err: failure(code), method: 'POST', body: Buffer.from('{}'), attempt: 0 })).toBe(false);
      expect(retriesOnce({ err: failure(code), method: 'PATCH', body: Buffer.from('{}'), attempt: 0 })).toBe(false);
    }
  });

  it('never sends again after an answer, on a timeout, or a body streamed once (an upload)', () => {
    expect(retriesOnce({ err: undefined, method: 'GET', body: undefined, attempt: 0 })).toBe(false);
    expect(retriesOnce({ err: failure('UND_ERR_HEADERS_TIMEOUT'), method: 'GET', body: undefined, attempt: 0 })).toBe(false);
    expect(retriesOnce({ err: failure('ECONNREFUSED'), method: 'POST', body: Readable.from(['x']), attempt: 0 })).toBe(false);
  });
});
