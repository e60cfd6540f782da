import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { openUpload, type OpenUpload, waitFor } from '@school/testing';
import { bearer, REDIS_URL, startTestGateway, type TestGateway } from './support/gateway.js';
import { resetFakes } from './support/fake-upstreams.js';
import { parseResponse } from './support/raw-socket.js';

/** Contract §9, uploads: the idle cut, uploads in flight, and slow uploads delaying no one. */

const token = async (gateway: TestGateway, sub: string, role = 'customer') => (await bearer(gateway.issuer, { sub, role })).slice('Bearer '.length);

function smallUpload(): FormData {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'note.txt');
  return form;
}

async function post(gateway: TestGateway, path: string, authorization: string, ip: string): Promise<Response> {
  return fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization, 'x-forwarded-for': ip }, body: smallUpload() });
}

/** Sends a byte on each open upload every `everyMs` until stopped: slow, but never idle for the cut. */
function trickle(uploads: OpenUpload[], everyMs: number): () => void {
  const timer = setInterval(() => uploads.forEach((upload) => upload.drip()), everyMs);
  return () => clearInterval(timer);
}

describe('the upload idle cut', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({ env: { UPLOAD_IDLE_TIMEOUT_MS: '1500' } });
  });
  afterAll(() => gateway.close());
  afterEach(() => resetFakes(gateway.fakes));

  it('answers an upload body that stops sending with 408 REQUEST_TIMEOUT on a closing connection; media sees nothing', async () => {
    for (const path of ['/api/upload', '/mobile/uploads']) {
      const upload = await openUpload(gateway.url, path, { token: await token(gateway, 'stalled', path.includes('mobile') ? 'customer' : 'admin') });
      const response = parseResponse(await upload.answer);
      expect({ path, status: response.status, connection: response.headers['connection'] }).toEqual({ path, status: 408, connection: 'close' });
      expect(JSON.parse(response.body)).toEqual({ message: 'The request was not received in time', data: null, errorCode: 'REQUEST_TIMEOUT' });
    }
    expect(gateway.fakes.media.received).toHaveLength(0);
  });

  it('lets a body that keeps delivering bytes take longer than the idle cut', async () => {
    const upload = await openUpload(gateway.url, '/api/mobile/uploads', { token: await token(gateway, 'slow'), declaredBytes: 4096 });
    for (let drip = 0; drip < 12; drip += 1) {
      await sleep(250);
      upload.drip();
    }
    upload.finish();
    const stopWaiting = new AbortController();
    const answer = await Promise.race([upload.answer, sleep(30_000, '', { signal: stopWaiting.signal }).catch(() => '')]);
    stopWaiting.abort(); // a pending timer would keep jest from exiting
    expect(parseResponse(answer).status).not.toBe(408);
    expect(gateway.fakes.media.received).toHaveLength(1);
    expect(gateway.fakes.media.received[0]?.body.length).toBe(4096);
  });
});

describe('uploads in flight and slow uploads', () => {
  let gateway: TestGateway;
  let spoolParent: string;
  const open: OpenUpload[] = [];
  /** Files the gateway keeps for bodies received or being received. */
  const spooled = async () => (await Promise.all((await readdir(spoolParent)).map((dir) => readdir(join(spoolParent, dir))))).flat();

  beforeAll(async () => {
    spoolParent = await mkdtemp(join(tmpdir(), 'gateway-test-spool-'));
    gateway = await startTestGateway({ env: { TRUST_PROXY: '1' }, deps: { uploadSpoolParent: spoolParent } });
  });
  afterEach(() => {
    for (const upload of open.splice(0)) upload.reset();
    resetFakes(gateway.fakes);
  });
  afterAll(async () => {
    await gateway.close();
    await rm(spoolParent, { recursive: true, force: true });
  });

  /** The upload slots `users` hold in Redis now. */
  const slotsHeld = async (users: string[]) => {
    const redis = new Redis(REDIS_URL);
    try {
      const keys = users.map((user) => `${gateway.keyPrefix}uploads-in-flight:user:${createHash('sha256').update(user).digest('base64url')}`);
      return (await Promise.all(keys.map((key) => redis.zcard(key)))).reduce((sum, count) => sum + count, 0);
    } finally {
      redis.disconnect();
    }
  };

  const hold = async (path: string, sub: string, ip: string, role = 'customer') => {
    const upload = await openUpload(gateway.url, path, { token: await token(gateway, sub, role), headers: { 'x-forwarded-for': ip } });
    open.push(upload);
    return upload;
  };

  /** Of uploads opened at once, the one over a limit is answered (429, once its unread body was given 5 s); the others stay open. */
  async function firstAnswer(uploads: OpenUpload[]): Promise<{ status: number; retryAfter: string | undefined; errorCode: unknown; stillOpen: number }> {
    const text = await Promise.any(uploads.map((upload) => upload.answer));
    const response = parseResponse(text);
    const settled = await Promise.all(uploads.map((upload) => Promise.race([upload.answer.then(() => true), sleep(0, false)])));
    return {
      status: response.status,
      retryAfter: response.headers['retry-after'],
      errorCode: JSON.parse(response.body).errorCode,
      stillOpen: settled.filter((done) => !done).length,
    };
  }

  it('refuses a 4th upload in flight of one user and an 11th of one ip with 429 RATE_LIMITED and Retry-After, on every upload route', async () => {
    for (const [path, role] of [
      ['/api/mobile/uploads', 'customer'],
      ['/upload/multiple', 'admin'],
      ['/api/upload', 'admin'],
    ] as const) {
      const sameUser = await Promise.all([1, 2, 3, 4].map((index) => hold(path, `${role}-busy-${path}`, `10.0.${index}.1`, role)));
      expect({ path, ...(await firstAnswer(sameUser)) }).toEqual({ path, status: 429, retryAfter: expect.stringMatching(/^\d+$/), errorCode: 'RATE_LIMITED', stillOpen: 3 });
      // Another user from the same addresses is not held back by them.
      expect((await post(gateway, path, await bearer(gateway.issuer, { sub: `${role}-other`, role }), '10.0.1.1')).status).toBe(200);
      for (const upload of open.splice(0)) upload.reset();
    }

    const sameIp = await Promise.all(Array.from({ length: 11 }, (_, index) => hold('/mobile/uploads', `neighbour-${index}`, '10.0.9.1')));
    expect(await firstAnswer(sameIp)).toEqual({ status: 429, retryAfter: expect.stringMatching(/^\d+$/), errorCode: 'RATE_LIMITED', stillOpen: 10 });
    expect((await post(gateway, '/api/mobile/uploads', await bearer(gateway.issuer, { sub: 'newcomer' }), '10.0.9.2')).status).toBe(200);
  });

  it('frees the slots of uploads whose connection was reset or closed mid-body', async () => {
    const held = await Promise.all([1, 2, 3, 4].map(() => hold('/api/upload', 'dropper', '10.0.10.1', 'admin')));
    expect((await firstAnswer(held)).status).toBe(429);
    held.forEach((upload, index) => (index % 2 === 0 ? upload.reset() : upload.end()));
    const authorization = await bearer(gateway.issuer, { sub: 'dropper', role: 'admin' });
    // The slots go as the gateway sees each connection close: ask until it has.
    await waitFor(async () => (await post(gateway, '/api/upload', authorization, '10.0.10.2')).status === 200, {
      timeoutMs: 5_000,
      intervalMs: 100,
      what: 'an upload slot of the dropper freed',
    });
  });

  it("keeps signed URLs and other users' uploads answering while 130 uploads trickle, none of them reaching media", async () => {
    // 130 callers from 13 addresses: within both limits, and more than a shared upstream pool's 128 connections.
    const trickling = await Promise.all(Array.from({ length: 130 }, (_, index) => hold('/api/mobile/uploads', `trickler-${index}`, `10.1.${Math.floor(index / 10)}.1`)));
    const stop = trickle(trickling, 2_000);
    try {
      const tricklers = Array.from({ length: 130 }, (_, index) => `trickler-${index}`);
      await waitFor(async () => (await slotsHeld(tricklers)) === 130, { intervalMs: 100, what: 'every trickle holding its upload slot' });
      const signed = await fetch(`${gateway.url}/api/mobile/uploads/signed-url/uploads/image/u/x.webp`, {
        headers: { authorization: await bearer(gateway.issuer, { sub: 'reader' }) },
      });
      expect(signed.status).toBe(200);
      const upload = await post(gateway, '/api/mobile/uploads', await bearer(gateway.issuer, { sub: 'someone-else' }), '10.2.0.1');
      expect(upload.status).toBe(200);
      const health = await fetch(`${gateway.url}/health/ready`);
      expect(health.status).toBe(200);
      // Answered while every trickle is still open: none was cut or answered.
      const settled = await Promise.race([Promise.any(trickling.map((each) => each.answer)), sleep(0, 'open')]);
      expect(settled).toBe('open');
      expect(gateway.fakes.media.received.map((request) => request.url)).toEqual(['/api/mobile/uploads/signed-url/uploads/image/u/x.webp', '/api/mobile/uploads']);
    } finally {
      stop();
    }
  });

  it('keeps serving after hundreds of uploads are dropped mid-body at once, refused ones included', async () => {
    const dropped = await Promise.all(Array.from({ length: 300 }, (_, index) => hold('/api/upload', `admin-${index % 40}`, `10.3.${index % 25}.1`, 'admin')));
    // Dropped once the gateway holds every caller's three slots: the others are waiting to be refused.
    const admins = Array.from({ length: 40 }, (_, user) => `admin-${user}`);
    await waitFor(async () => (await slotsHeld(admins)) === 40 * 3, { intervalMs: 100, what: 'every caller holding its three upload slots' });
    dropped.forEach((upload, index) => (index % 2 === 0 ? upload.reset() : upload.end()));
    open.length = 0;
    // Their callers' slots are free again, whenever in its course each upload was dropped.
    await waitFor(async () => (await slotsHeld(admins)) === 0, { timeoutMs: 5_000, intervalMs: 100, what: 'the dropped uploads releasing their slots' });
    expect((await fetch(`${gateway.url}/health/live`)).status).toBe(200);
    expect((await post(gateway, '/api/upload', await bearer(gateway.issuer, { sub: 'admin-after', role: 'admin' }), '10.4.0.1')).status).toBe(200);
    // No spooled body outlives its request.
    await waitFor(async () => (await spooled()).length === 0, { timeoutMs: 5_000, intervalMs: 100, what: 'no spooled body left' });
  });
});
