import { randomBytes } from 'node:crypto';
import { bearer, startTestGateway, type TestGateway } from './support/gateway.js';
import { expectRateLimited } from './support/rate-limited.js';

const unique = () => randomBytes(4).toString('hex');
const uniqueIp = () => `10.${randomBytes(3).join('.')}`;
const times = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));

async function statuses(requests: Array<() => Promise<Response>>): Promise<number[]> {
  const result: number[] = [];
  for (const request of requests) result.push((await request()).status);
  return result;
}

/** Contract §9: the throttles a hostile client meets at the gateway. */
describe('gateway abuse limits (contract §9)', () => {
  let gateway: TestGateway;
  // One trusted proxy: each test speaks from its own address, so counts never mix between tests.
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  beforeAll(async () => {
    gateway = await startTestGateway({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => gateway.close());

  const postJson = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(gateway.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('takes at most 20 guest feedbacks per hour per ip, whatever the X-Device-Id', async () => {
    const ip = uniqueIp();
    const guest =
      (address = ip) =>
      () =>
        postJson('/api/mobile/feedback/public', { message: 'm' }, { ...from(address), 'x-device-id': `device-${unique()}` });
    expect(await statuses(times(20, () => guest()))).toEqual(times(20, () => 200));
    await expectRateLimited(await guest()(), 3600);
    expect((await guest(uniqueIp())()).status).toBe(200);
    expect(gateway.fakes.feedback.received.filter((request) => request.headers['x-forwarded-for']?.toString().startsWith(ip))).toHaveLength(20);
  });

  it('takes at most 10 signed-in feedbacks per hour per user, whatever the ip', async () => {
    const alice = await bearer(gateway.issuer, { sub: `alice-${unique()}` });
    const send = (authorization: string) => () => postJson('/api/mobile/feedback', { message: 'm' }, { authorization, ...from(uniqueIp()) });
    expect(await statuses(times(10, () => send(alice)))).toEqual(times(10, () => 200));
    await expectRateLimited(await send(alice)(), 3600);
    expect((await send(await bearer(gateway.issuer, { sub: `bob-${unique()}` }))()).status).toBe(200);
  });

  it('takes at most 60 administrator uploads per minute per user across the upload routes and their aliases', async () => {
    const admin = await bearer(gateway.issuer, { sub: `admin-${unique()}`, role: 'admin' });
    const upload =
      (path: string, authorization = admin) =>
      () => {
        const form = new FormData();
        form.append(path.endsWith('multiple') ? 'files' : 'file', new Blob([Buffer.from('png')], { type: 'image/png' }), 'a.png');
        return fetch(gateway.url + path, { method: 'POST', headers: { authorization, ...from(uniqueIp()) }, body: form });
      };
    const paths = ['/api/upload', '/upload', '/api/upload/multiple', '/upload/multiple'];
    expect(await statuses(times(60, (index) => upload(paths[index % 4]!)))).toEqual(times(60, () => 200));
    for (const path of paths) await expectRateLimited(await upload(path)(), 60);
    const other = await bearer(gateway.issuer, { sub: `admin-${unique()}`, role: 'admin' });
    expect((await upload('/api/upload', other)()).status).toBe(200);
  });

  it('counts every key of a customer batch of signed URLs against the signed-URL throttle, refusing a batch that would pass it whole', async () => {
    const ip = uniqueIp();
    const authorization = await bearer(gateway.issuer, { sub: `customer-${unique()}` });
    const batch =
      (size: number, path = '/api/mobile/uploads/signed-urls') =>
      () =>
        postJson(path, { keys: times(size, (index) => `public/avatar/${index}.webp`) }, { authorization, ...from(ip) });
    const single = () => fetch(`${gateway.url}/api/mobile/uploads/signed-url/public/avatar/a.webp`, { headers: { authorization, ...from(ip) } });

    expect(await statuses([batch(30), single, batch(19, '/mobile/uploads/signed-urls')])).toEqual([200, 200, 200]);
    // 50 counted: 11 more would pass 60, so none of them is taken (nor counted); 10 still fit.
    await expectRateLimited(await batch(11)(), 60);
    await expectRateLimited(await batch(11, '/mobile/uploads/signed-urls')(), 60);
    expect((await batch(10)()).status).toBe(200);
    await expectRateLimited(await single(), 60);
    await expectRateLimited(await batch(1)(), 60);
    // A batch media refuses anyway (over 100 keys: 400 there) counts as one request, like any refused body.
    const elsewhere = uniqueIp();
    const keys = (size: number) => () => postJson('/mobile/uploads/signed-urls', { keys: times(size, (index) => `k/${index}`) }, { authorization, ...from(elsewhere) });
    expect(await statuses([keys(101), keys(101), keys(58)])).toEqual([200, 200, 200]);
    await expectRateLimited(await keys(1)(), 60);
    // The administrator surface has no such throttle.
    const admin = () => postJson('/api/upload/signed-urls', { keys: times(100, (index) => `public/avatar/${index}.webp`) }, { authorization, ...from(ip) });
    expect(await statuses([admin, admin])).toEqual([200, 200]);
  });
});
