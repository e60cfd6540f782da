import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { BOOTSTRAP_ADMIN, signIn } from './support/people.js';
import { startSystem, type RunningSystem } from '@school/system-harness';
import { scaled } from '@school/testing';

const root = fileURLToPath(new URL('../..', import.meta.url));
/**
 * Short rotation timings: verifiers cache the JWKS 1 s, identity re-reads its keys every second, a
 * replaced key verifies 4 s after the new one signs (stretched on a loaded machine): time for the
 * two calls that check the old token and the JWKS then. The test waits all of it out.
 */
const TIMINGS = { JWKS_CACHE_SECONDS: '1', JWT_KEYS_REFRESH_SECONDS: '1', JWT_KEY_RETIREMENT_SECONDS: String(Math.ceil(scaled(4_000) / 1_000)) };

const kidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;

describe('signing key rotation through the gateway (npm run keys:rotate)', () => {
  let system: RunningSystem;
  let isolated: Record<string, string>;

  beforeAll(async () => {
    system = await startSystem({
      services: ['identity'],
      env: (resources) => {
        isolated = resources;
        return TIMINGS;
      },
    });
  });

  afterAll(async () => {
    await system?.shutdown();
  });

  async function post(path: string, body: unknown): Promise<{ accessToken: string; refreshToken: string }> {
    const response = await fetch(`${system.gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { accessToken: string; refreshToken: string } }).data;
  }

  const me = (token: string) => fetch(`${system.gatewayUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  const jwksKids = async () => ((await (await fetch(`${system.gatewayUrl}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> }).keys.map((key) => key.kid);

  async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + scaled(timeoutMs);
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(200);
    }
  }

  it('old and new tokens both work until the old key retires; then the old one is refused and only the new key is published', async () => {
    const first = await post('/api/auth/login/email', BOOTSTRAP_ADMIN);
    const oldKid = kidOf(first.accessToken);
    expect(await jwksKids()).toEqual([oldKid]);
    expect((await me(first.accessToken)).status).toBe(200);

    // The real command, as an operator runs it (after `npm run build`), against this run's database.
    const { stdout } = await promisify(execFile)(process.execPath, ['services/identity/dist/cli/keys-rotate.js'], {
      cwd: root,
      env: { ...process.env, ...isolated, ...TIMINGS, DOTENV_PATH: '/dev/null', NODE_ENV: 'test' },
    });
    const [, newKid, signsFrom] = /^new signing key ([^\s:]+): published now, signs from (\S+)$/m.exec(stdout) ?? [];
    expect(newKid).toBeDefined();
    expect(newKid).not.toBe(oldKid);

    // Published before it signs: a verifier learns the new kid before any token carries it.
    await until(async () => ((await jwksKids()).includes(newKid!) ? true : undefined), 'the new key in the JWKS');
    expect((await jwksKids()).sort()).toEqual([newKid, oldKid].sort());

    await sleep(Math.max(0, Date.parse(signsFrom!) - Date.now()) + 1_500);
    // The new key signs; the old one still verifies and is still published, after the signing key.
    expect((await me(first.accessToken)).status).toBe(200);
    expect(await jwksKids()).toEqual([newKid, oldKid]);
    const second = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    expect(kidOf(second.accessToken)).toBe(newKid);
    expect((await me(second.accessToken)).status).toBe(200);
    // Refresh tokens are opaque: one issued before the rotation refreshes into a token of the new key.
    const refreshed = await post('/api/auth/refresh', { refreshToken: first.refreshToken });
    expect(kidOf(refreshed.accessToken)).toBe(newKid);

    await until(async () => ((await jwksKids()).length === 1 ? true : undefined), 'the old key to leave the JWKS');
    expect(await jwksKids()).toEqual([newKid]);
    // Verifiers drop it once their cached JWKS (1 s here) has expired.
    const refused = await until(
      async () => {
        const response = await me(first.accessToken);
        return response.status === 401 ? response : undefined;
      },
      'the old token to be refused',
      5_000,
    );
    expect(await refused.json()).toMatchObject({ data: null, errorCode: 'AUTH_UNAUTHENTICATED' });
    expect((await me(second.accessToken)).status).toBe(200);
  });
});
