import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { freePort, RoundRobinBalancer, waitFor } from '@school/testing';
import { type RunningSystem, startSystem } from '@school/system-harness';
import { BOOTSTRAP_ADMIN } from './support/people.js';
import { repositoryRoot } from './support/repository-root.js';

const UNAVAILABLE = { message: 'Service temporarily unavailable', data: null, errorCode: 'SERVICE_UNAVAILABLE' };

/**
 * Issue 31 item 11: identity as two replicas behind one address, a round-robin balancer that does
 * not retry (as a Kubernetes Service); its connections are ended between requests, so each request opens one.
 */
describe('identity as two replicas behind one balancer', () => {
  let system: RunningSystem;
  let balancer: RoundRobinBalancer;
  let second: ChildProcess | undefined;
  let firstUrl: string;

  beforeAll(async () => {
    const firstPort = await freePort();
    firstUrl = `http://127.0.0.1:${firstPort}`;
    balancer = await RoundRobinBalancer.start([firstUrl]);
    system = await startSystem({ label: 'replicas', services: ['identity'], env: { IDENTITY_PORT: String(firstPort) }, processEnv: { gateway: { IDENTITY_URL: balancer.url } } });
    const secondUrl = `http://127.0.0.1:${await freePort()}`;
    second = spawn(process.execPath, [join(repositoryRoot, 'services/identity/dist/main.js')], {
      cwd: repositoryRoot,
      env: { ...system.environment('identity'), PORT: new URL(secondUrl).port },
      stdio: 'ignore',
    });
    await waitFor(async () => (await fetch(`${secondUrl}/health/ready`).catch(() => undefined))?.ok, { timeoutMs: 60_000, what: 'the second identity replica' });
    balancer.setReplicas([firstUrl, secondUrl]);
  }, 180_000);
  afterAll(async () => {
    second?.kill('SIGKILL');
    await system?.shutdown();
    await balancer?.close();
  });

  const nextConnection = () => balancer.dropConnections();

  it('answers every request from the live replica once the other is killed', async () => {
    const login = async () =>
      fetch(`${system.gatewayUrl}/api/auth/login/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: BOOTSTRAP_ADMIN.email, password: BOOTSTRAP_ADMIN.password }),
      });
    const signedIn = await login();
    expect(signedIn.status).toBe(200);
    const { accessToken } = ((await signedIn.json()) as { data: { accessToken: string } }).data;

    second!.kill('SIGKILL');
    await once(second!, 'exit');
    const statuses: string[] = [];
    for (let round = 0; round < 4; round += 1) {
      for (const [name, call] of [
        ['keys', () => fetch(`${system.gatewayUrl}/.well-known/jwks.json`)],
        ['me', () => fetch(`${system.gatewayUrl}/api/auth/me`, { headers: { authorization: `Bearer ${accessToken}` } })],
      ] as const) {
        await nextConnection();
        const answer = await call();
        await answer.arrayBuffer();
        statuses.push(`${name} ${answer.status}`);
      }
    }
    expect(statuses).toEqual(Array.from({ length: 4 }, () => ['keys 200', 'me 200']).flat());
    // Every other connection went to the dead replica: each of those requests went again, on a new one.
    expect(balancer.given[1]).toBeGreaterThanOrEqual(4);
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After once both are down', async () => {
    await system.stop('identity');
    for (const [method, path] of [
      ['GET', '/.well-known/jwks.json'],
      ['POST', '/api/auth/login/email'],
    ] as const) {
      await nextConnection();
      const response = await fetch(`${system.gatewayUrl}${path}`, {
        method,
        ...(method === 'POST' && { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: BOOTSTRAP_ADMIN.email, password: 'x' }) }),
      });
      expect({ path, status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() }).toEqual({
        path,
        status: 503,
        retryAfter: expect.stringMatching(/^[1-9]\d*$/),
        body: UNAVAILABLE,
      });
    }
  });
});
