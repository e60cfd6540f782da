import { scaled, uploadHead, writeThenRead } from '@school/testing';
import { bearer, json, startTestGateway, type TestGateway } from './support/gateway.js';
import { resetFakes } from './support/fake-upstreams.js';
import { exchange, parseResponse } from './support/raw-socket.js';

const MIB = 1024 * 1024;

function multipart(fileBytes: number): FormData {
  const form = new FormData();
  form.append('file', new Blob([Buffer.alloc(fileBytes, 7)], { type: 'image/png' }), 'big.png');
  return form;
}

describe('uploads refused before their body is read', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(() => gateway.close());
  afterEach(() => resetFakes(gateway.fakes));

  it('answers fetch with the 401 envelope, not a dropped connection, for a few MiB without a token or with a bad one', async () => {
    for (const [path, authorization] of [
      ['/api/upload', undefined],
      ['/upload', 'Bearer not-a-token'],
      ['/api/mobile/uploads', undefined],
      ['/mobile/uploads', 'Bearer not-a-token'],
    ] as const) {
      // Several times over: a reset racing the answer would fail some of them.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await fetch(`${gateway.url}${path}`, {
          method: 'POST',
          body: multipart(path.includes('mobile') ? 5 * MIB : 20 * MIB),
          ...(authorization && { headers: { authorization } }),
        });
        expect({ path, status: response.status }).toEqual({ path, status: 401 });
        expect(await json(response)).toEqual({ message: 'Authentication required', data: null, errorCode: 'AUTH_UNAUTHENTICATED' });
      }
    }
    expect(gateway.fakes.media.received).toHaveLength(0);
  });

  it('reads and discards the body of a client that writes before it reads, then answers 401 without a reset', async () => {
    for (const [path, length] of [
      ['/api/upload', 20 * MIB],
      ['/mobile/uploads', 5 * MIB + 512 * 1024],
    ] as const) {
      const answer = await writeThenRead(gateway.url, uploadHead(path, length), length);
      expect({ path, errors: answer.errors }).toEqual({ path, errors: [] });
      const response = parseResponse(answer.response);
      expect({ path, status: response.status }).toEqual({ path, status: 401 });
      expect(JSON.parse(response.body)).toMatchObject({ errorCode: 'AUTH_UNAUTHENTICATED' });
    }
  });

  it("does not read more than the route's cap: a larger declared body is answered at once", async () => {
    // Mobile: 5 MiB and 1 MiB of multipart overhead.
    const answer = await exchange(gateway.url, uploadHead('/api/mobile/uploads', 50 * MIB), { giveUpMs: 5_000 });
    expect(answer.closedAfterMs).toBeLessThan(scaled(2_000));
    expect(parseResponse(answer.text).status).toBe(401);
  });

  it('answers a body still trickling after the drain deadline, closing the connection', async () => {
    const started = Date.now();
    const answer = await exchange(gateway.url, uploadHead('/api/upload', 1 * MIB), { drip: Array.from({ length: 100 }, () => 'a'), dripEveryMs: 100, giveUpMs: 15_000 });
    expect(answer.closedAfterMs).toBeLessThan(scaled(9_000));
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
    const response = parseResponse(answer.text);
    expect([response.status, response.headers['connection']]).toEqual([401, 'close']);
  });

  it('still forwards an authenticated upload whole', async () => {
    const authorization = await bearer(gateway.issuer, { role: 'admin' });
    const response = await fetch(`${gateway.url}/api/upload`, { method: 'POST', headers: { authorization }, body: multipart(2 * MIB) });
    expect(response.status).toBe(200);
    expect(gateway.fakes.media.received).toHaveLength(1);
  });
});
