import { setTimeout as sleep } from 'node:timers/promises';
import { TcpProxy } from '@school/messaging/testing';
import { type RunningSystem, startSystem } from '@school/system-harness';
import { scaled } from '@school/testing';

/** The whole system reaches PostgreSQL through a proxy this suite cuts while requests flow. */
let database: TcpProxy;
let system: RunningSystem;

beforeAll(async () => {
  database = await TcpProxy.start(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  system = await startSystem({ services: ['identity'], env: (isolated) => ({ DATABASE_URL: database.urlFor(isolated['DATABASE_URL'] as string) }) });
}, 90_000);

afterAll(async () => {
  await database?.resume();
  await system?.shutdown();
  await database?.close();
});

interface Answer {
  status: number;
  errorCode: string | null;
  retryAfter: string | null;
}

async function listUsers(accessToken: string): Promise<Answer> {
  const response = await fetch(`${system.gatewayUrl}/api/users`, { headers: { authorization: `Bearer ${accessToken}` } });
  const body = (await response.json()) as { errorCode: string | null };
  return { status: response.status, errorCode: body.errorCode, retryAfter: response.headers.get('retry-after') };
}

describe('PostgreSQL cut under load', () => {
  it('answers 503 SERVICE_UNAVAILABLE (never 500) while it is gone, and recovers when it is back', async () => {
    const login = await fetch(`${system.gatewayUrl}/api/auth/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'Admin123!' }),
    });
    const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
    expect((await listUsers(accessToken)).status).toBe(200);

    // Eight clients keep asking while the database goes away for three seconds.
    const answers: Answer[] = [];
    let flowing = true;
    const clients = Array.from({ length: 8 }, async () => {
      while (flowing) answers.push(await listUsers(accessToken));
    });
    await sleep(300);
    await database.cut();
    await sleep(3_000);
    await database.resume();
    await sleep(300);
    flowing = false;
    await Promise.all(clients);

    const unexpected = answers.filter((answer) => answer.status !== 200 && answer.status !== 503);
    expect(unexpected).toEqual([]);
    const unavailable = answers.filter((answer) => answer.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const answer of unavailable) expect(answer).toMatchObject({ errorCode: 'SERVICE_UNAVAILABLE', retryAfter: expect.stringMatching(/^\d+$/) });

    // Back within seconds, without restarting anything.
    const deadline = Date.now() + scaled(10_000);
    let last = await listUsers(accessToken);
    while (last.status !== 200 && Date.now() < deadline) {
      await sleep(200);
      last = await listUsers(accessToken);
    }
    expect(last.status).toBe(200);
  }, 60_000);
});
