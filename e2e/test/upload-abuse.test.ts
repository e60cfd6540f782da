import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVICE_NAMES } from '@school/config';
import { openUpload, type OpenUpload } from '@school/testing';
import { BOOTSTRAP_ADMIN, invitedPerson, type SignedIn, signIn } from './support/people.js';
import { type RunningSystem, startSystem } from '@school/system-harness';

/**
 * Issue 20, defects 0 and 1 (contract §9): no client behaviour ends or wedges a process, and slow
 * uploads never delay other requests. Clients speak from loopback addresses of their own (127.0.0.x).
 */

let system: RunningSystem;
let storageDir: string;
let admin: SignedIn;
/** 45 customers who trickle, and one who does ordinary things meanwhile. */
let tricklers: SignedIn[];
let bystander: SignedIn;
const open: OpenUpload[] = [];

const PASSWORD = 'Pers0n!Cedar-Vault';
/** A valid 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const randomIp = () => `10.${randomBytes(3).join('.')}`;
/** A customer the admin invites, each from an address of its own (a minute for the mail: many are invited at once). */
const customer = () => invitedPerson(system, admin.accessToken, 'customer', PASSWORD, { mailTimeoutMs: 60_000 });

async function upload(path: string, token: string): Promise<{ status: number; data: Record<string, unknown> | null }> {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'dot.png');
  // From an address of its own each time: the per-ip upload throttle is not what these tests are about.
  const response = await fetch(`${system.gatewayUrl}${path}`, { method: 'POST', body, headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': randomIp() } });
  return { status: response.status, data: ((await response.json()) as { data: Record<string, unknown> | null }).data };
}

async function get(path: string, token?: string): Promise<number> {
  const response = await fetch(`${system.gatewayUrl}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  await response.arrayBuffer();
  return response.status;
}

/** Every process's own readiness, and the gateway's. */
async function everyProcessReady(): Promise<Record<string, number>> {
  const urls = { gateway: system.gatewayUrl, ...Object.fromEntries(SERVICE_NAMES.map((name) => [name, system.serviceUrl(name)])) };
  const statuses = await Promise.all(Object.values(urls).map(async (url) => (await fetch(`${url}/health/ready`)).status));
  return Object.fromEntries(Object.keys(urls).map((name, index) => [name, statuses[index] ?? 0]));
}

beforeAll(async () => {
  storageDir = await mkdtemp(join(tmpdir(), 'e2e-storage-'));
  // One trusted proxy: the set-up speaks from addresses of its own; the abuse comes from socket addresses.
  system = await startSystem({ env: { STORAGE_DIR: storageDir, TRUST_PROXY: '1', UPLOAD_IDLE_TIMEOUT_MS: '5000' } });
  admin = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
  const people: SignedIn[] = [];
  for (let batch = 0; batch < 46; batch += 6) {
    people.push(...(await Promise.all(Array.from({ length: Math.min(6, 46 - batch) }, () => customer()))));
  }
  bystander = people.pop()!;
  tricklers = people;
}, 300_000);

afterEach(() => {
  for (const each of open.splice(0)) each.reset();
});

afterAll(async () => {
  await system?.shutdown();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

describe('slow uploads never delay other requests (contract §9)', () => {
  it("answers signed URLs, the file proxy, signed files and another customer's upload while 135 uploads trickle; readiness stays true", async () => {
    const stored = await upload('/api/mobile/uploads', bystander.accessToken);
    expect(stored.status).toBe(200);
    const key = String(stored.data?.['relativePath']);

    // 45 customers, 3 uploads each (their limit), from 14 addresses (at most 10 each): more than a
    // shared pool of 128 upstream connections would hold.
    const trickling = await Promise.all(
      tricklers.flatMap((person, index) =>
        [0, 1, 2].map((slot) => {
          const n = index * 3 + slot;
          // A text file: media can judge it only once it is whole, so it answers none of them early.
          return openUpload(system.gatewayUrl, `${n % 2 ? '/mobile/uploads' : '/api/mobile/uploads'}?uploadType=file`, {
            token: person.accessToken,
            localAddress: `127.0.0.${10 + Math.floor(n / 10)}`,
          });
        }),
      ),
    );
    open.push(...trickling);
    const dripping = setInterval(() => trickling.forEach((each) => each.drip()), 1_000);
    try {
      await sleep(1_000);
      const signed = await fetch(`${system.gatewayUrl}/api/mobile/uploads/signed-url/${key}`, { headers: { authorization: `Bearer ${bystander.accessToken}` } });
      expect(signed.status).toBe(200);
      const url = new URL(String(((await signed.json()) as { data: { url: string } }).data.url));
      expect(await get(`${url.pathname}${url.search}`)).toBe(200);
      expect(await get(`/api/mobile/uploads/file/${key}`, bystander.accessToken)).toBe(200);
      expect((await upload('/api/mobile/uploads', bystander.accessToken)).status).toBe(200);
      expect((await upload('/api/upload', admin.accessToken)).status).toBe(200);
      expect((await fetch(`${system.gatewayUrl}/health/ready`)).status).toBe(200);

      // All of that while every trickle was still open, none cut or answered.
      const settled = await Promise.all(trickling.map((each) => Promise.race([each.answer.then(() => true), sleep(0, false)])));
      expect(settled.filter(Boolean)).toHaveLength(0);
    } finally {
      clearInterval(dripping);
    }
  }, 120_000);
});

describe('no client behaviour ends or wedges a process (contract §9)', () => {
  it('keeps every process serving after hundreds of uploads from 23 addresses are reset, half-closed or aborted mid-body', async () => {
    const callers = [
      ...tricklers.map((person) => ({ token: person.accessToken, path: '/api/mobile/uploads' })),
      { token: admin.accessToken, path: '/api/upload' },
      { token: admin.accessToken, path: '/upload/multiple' },
    ];
    // Far over both limits: some are in flight, most refused (and being drained) when they drop.
    const dropped = await Promise.all(
      Array.from({ length: 230 }, (_, index) => {
        const caller = callers[index % callers.length]!;
        return openUpload(system.gatewayUrl, caller.path, { token: caller.token, localAddress: `127.0.0.${30 + (index % 23)}`, declaredBytes: 1024 * 1024 });
      }),
    );
    const aborts = Array.from({ length: 40 }, (_, index) => abortedStream(callers[index % callers.length]!));
    await sleep(500);
    dropped.forEach((each, index) => (index % 2 === 0 ? each.reset() : each.end()));
    for (const abort of aborts) abort();
    // Half-open and reset connections straight at each service too.
    await Promise.all(SERVICE_NAMES.map((name) => dropConnections(system.serviceUrl(name), 20)));

    await sleep(1_000);
    expect(await everyProcessReady()).toEqual(Object.fromEntries(['gateway', ...SERVICE_NAMES].map((name) => [name, 200])));
    // The dropped uploads' slots are free again: the same customers upload as usual.
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt += 1) {
      if (attempt > 0) await sleep(250);
      status = (await upload('/mobile/uploads', tricklers[0]!.accessToken)).status;
    }
    expect(status).toBe(200);
    expect((await upload('/api/upload', admin.accessToken)).status).toBe(200);
    expect(system.logs('gateway')).not.toMatch(/Unhandled 'error' event/);
  }, 120_000);
});

/** A fetch whose streamed body stops after its first bytes; the returned function aborts it. */
function abortedStream(caller: { token: string; path: string }): () => void {
  const controller = new AbortController();
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      stream.enqueue(new TextEncoder().encode('--x\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\ncontent-type: text/plain\r\n\r\nhello'));
    },
  });
  void fetch(`${system.gatewayUrl}${caller.path}`, {
    method: 'POST',
    body,
    duplex: 'half',
    signal: controller.signal,
    headers: { authorization: `Bearer ${caller.token}`, 'content-type': 'multipart/form-data; boundary=x' },
  }).catch(() => {});
  return () => controller.abort();
}

/** Opens `count` connections to a service that send half a request, then resets half of them and half-closes the rest. */
async function dropConnections(baseUrl: string, count: number): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  await Promise.all(
    Array.from(
      { length: count },
      (_, index) =>
        new Promise<void>((resolve) => {
          const socket = connect({ host: hostname, port: Number(port) }, () => {
            socket.write('POST /api/upload HTTP/1.1\r\nhost: service\r\ncontent-type: multipart/form-data; boundary=x\r\ncontent-length: 100000\r\n\r\n--x\r\n');
            setTimeout(() => {
              if (index % 2 === 0) socket.resetAndDestroy();
              // Read on after half-closing: a socket nobody reads never sees the service close it,
              // and it would stay open, keeping the suite's jest worker alive, to the end of the lane.
              else socket.resume().end();
              resolve();
            }, 100);
          });
          socket.on('error', () => resolve());
        }),
    ),
  );
}
