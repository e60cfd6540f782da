// `npm run bench:uploads-fairness` (after `npm run build`): issue 31, item 1, one bounded run on this
// machine against a fresh database and storage folder removed at the end. Needs Postgres and Redis.
//
// Other users' conversions while four customers convert maximal images (6320 x 6320, just under
// 40 megapixels), each with the 3 uploads in flight one user may have (contract §9): a fifth
// customer uploads a small PNG (400 x 300, optimize on) BENCH_SMALL times (default 8), one after
// another. The ceiling is the same small upload on the idle system, measured first in this run.
// Figures: how many of the small uploads were answered 200 (target: all), their worst latency
// under load (target: within the 10 s a conversion may wait, contract §9; the idle one beside it),
// and how many of the maximal uploads in flight when each small one was sent it overtook (fewest
// of them; target: at least 4, the customers converting: in turn, not behind their queue).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, gradientPng } from '@school/testing';
import { freshDatabase, reportResult, startProcess, stopAll, waitFor } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const mains = { identity: `${root}services/identity/dist/main.js`, media: `${root}services/media/dist/main.js`, gateway: `${root}services/gateway/dist/main.js` };
const userCreateCli = `${root}services/identity/dist/cli/user-create.js`;
const smallUploads = Number(process.env.BENCH_SMALL ?? 8);
const HEAVY_CUSTOMERS = 4;
const IN_FLIGHT_PER_USER = 3;
const CONVERSION_WAIT_MS = 10_000;

for (const path of Object.values(mains)) {
  if (!existsSync(path)) {
    console.error(`bench/uploads-fairness: ${path} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
}

const database = await freshDatabase('bench_uploads_fairness');
const workDir = await mkdtemp(join(tmpdir(), 'bench-uploads-fairness-'));
try {
  const [identityPort, mediaPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const identityUrl = `http://127.0.0.1:${identityPort}`;
  const mediaUrl = `http://127.0.0.1:${mediaPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const shared = { DATABASE_URL: database.url, JWKS_URL: `${identityUrl}/.well-known/jwks.json`, IDENTITY_URL: identityUrl, MEDIA_URL: mediaUrl, PUBLIC_BASE_URL: gatewayUrl };
  startProcess('identity', mains.identity, { ...shared, PORT: String(identityPort), HOST: '127.0.0.1' });
  await waitFor(`${identityUrl}/health/ready`);
  startProcess('media', mains.media, { ...shared, PORT: String(mediaPort), HOST: '127.0.0.1', STORAGE_DIR: join(workDir, 'storage') });
  await waitFor(`${mediaUrl}/health/ready`);
  // One trusted proxy: every upload speaks from an address of its own, so the per-ip limit stays out of the way.
  startProcess('gateway', mains.gateway, { ...shared, PORT: String(gatewayPort), HOST: '127.0.0.1', TRUST_PROXY: '1' });
  await waitFor(`${gatewayUrl}/health/live`);

  let address = 0;
  const nextAddress = () => `10.31.${Math.floor(++address / 250)}.${(address % 250) + 1}`;
  const customer = async (index: number): Promise<string> => {
    const [email, password] = [`bench-fair-${index}@example.com`, 'Bench-Fair-Pass-31'];
    const created = spawnSync(process.execPath, [userCreateCli, '--email', email, '--role', 'customer', '--password', password], {
      env: { ...process.env, DATABASE_URL: database.url, DOTENV_PATH: '/dev/null' },
      encoding: 'utf8',
    });
    if (created.status !== 0) throw new Error(`user:create ${email}: ${created.stderr}`);
    const login = await fetch(`${gatewayUrl}/api/mobile/auth/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
      body: JSON.stringify({ email, password }),
    });
    if (login.status !== 200) throw new Error(`login of ${email}: ${login.status}`);
    return ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  };
  const upload = async (token: string, image: Buffer): Promise<{ status: number; ms: number; sentAt: number; answeredAt: number }> => {
    const started = performance.now();
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'picture.png');
    const response = await fetch(`${gatewayUrl}/api/mobile/uploads?optimize=true`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': nextAddress() },
    });
    await response.arrayBuffer();
    const answeredAt = performance.now();
    return { status: response.status, ms: answeredAt - started, sentAt: started, answeredAt };
  };

  const maximal = gradientPng(6320, 6320);
  const small = gradientPng(400, 300);
  const heavy = await Promise.all(Array.from({ length: HEAVY_CUSTOMERS }, (_, index) => customer(index)));
  const bystander = await customer(HEAVY_CUSTOMERS);

  const idle: number[] = [];
  for (let i = 0; i < smallUploads; i += 1) {
    const answer = await upload(bystander, small);
    if (answer.status !== 200) throw new Error(`idle small upload: ${answer.status}`);
    idle.push(answer.ms);
  }
  const single = await upload(heavy[0]!, maximal);
  console.log(
    `bench/uploads-fairness: idle small conversion ${Math.max(...idle).toFixed(0)} ms at worst; one maximal conversion alone ${single.ms.toFixed(0)} ms (${single.status})`,
  );

  let converting = true;
  const heavyStatuses = new Map<number, number>();
  const heavyTimes: { sentAt: number; answeredAt: number }[] = [];
  const loops = heavy.flatMap((token) =>
    Array.from({ length: IN_FLIGHT_PER_USER }, async () => {
      while (converting) {
        const { status, sentAt, answeredAt } = await upload(token, maximal);
        heavyTimes.push({ sentAt, answeredAt });
        heavyStatuses.set(status, (heavyStatuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const answered = () => [...heavyStatuses.values()].reduce((sum, count) => sum + count, 0);
  // Their conversions fill both slots and the line: some answered, their next ones in flight.
  while (answered() < HEAVY_CUSTOMERS) await new Promise((resolve) => setTimeout(resolve, 100));
  const loaded: { status: number; ms: number; sentAt: number; answeredAt: number }[] = [];
  for (let i = 0; i < smallUploads; i += 1) loaded.push(await upload(bystander, small));
  converting = false;
  await Promise.all(loops);

  const ok = loaded.filter(({ status }) => status === 200).length;
  const worst = Math.max(...loaded.map(({ ms }) => ms));
  console.log(`  small conversions while 4 customers convert maximal images: ${loaded.map(({ status, ms }) => `${status} ${ms.toFixed(0)} ms`).join(', ')}`);
  console.log(`  the 4 customers' maximal uploads: ${JSON.stringify(Object.fromEntries(heavyStatuses))}`);
  const overtaken = loaded.map(({ sentAt, answeredAt }) => heavyTimes.filter((heavy) => heavy.sentAt < sentAt && heavy.answeredAt > answeredAt).length);
  console.log(`  maximal uploads in flight before each small one and answered after it: ${overtaken.join(', ')}`);
  reportResult({ figure: 'maximal uploads overtaken by a small one (fewest)', product: Math.min(...overtaken), unit: 'uploads', target: { op: '>=', value: HEAVY_CUSTOMERS } });
  reportResult({
    figure: "other users' small conversions answered 200 while 4 customers convert maximal images",
    product: ok,
    ceiling: loaded.length,
    unit: 'uploads',
    target: { op: '>=', value: 1 },
  });
  reportResult({
    figure: "worst latency of another user's small conversion while 4 customers convert maximal images",
    product: worst,
    unit: 'ms',
    target: { op: '<', value: CONVERSION_WAIT_MS },
    note: `idle: ${Math.max(...idle).toFixed(0)} ms; one maximal conversion alone: ${single.ms.toFixed(0)} ms`,
  });
} finally {
  await stopAll();
  await database.drop();
  await rm(workDir, { recursive: true, force: true });
}
