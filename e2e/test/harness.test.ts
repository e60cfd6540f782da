import { spawnSync } from 'node:child_process';
import { readRepoFile } from './support/deployment.js';
import { repositoryRoot } from './support/repository-root.js';
import { startSystem } from '@school/system-harness';

describe('the test harness', () => {
  it('supports Node >= 22.12 and tests and builds on Node 24: CI puts it first on PATH, the images start from it', () => {
    expect((JSON.parse(readRepoFile('package.json')) as { engines: { node: string } }).engines.node).toBe('>=22.12');
    expect(readRepoFile('Dockerfile')).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
    expect(readRepoFile('.github/workflows/ci.yml')).toMatch(/^ {10}node-version: 24$/m);
    const ci = readRepoFile('.ci/run');
    expect(ci).toMatch(/^NODE_MAJOR=24$/m);
    expect(ci).toContain('npm pack --silent --pack-destination "$NODE_DIR" "node-linux-$arch@$NODE_MAJOR"');
    expect(ci).toContain('export PATH="$PWD/$NODE_DIR/bin:$PATH"');
  });

  it(".ci/run installs Debian's chromium when it is missing, before npm test", () => {
    const ci = readRepoFile('.ci/run');
    expect(ci).toContain('if [ ! -x /usr/bin/chromium ]; then');
    expect(ci).toContain('apt-get install -y --no-install-recommends chromium');
    expect(ci.indexOf('chromium')).toBeLessThan(ci.indexOf('npm test'));
  });

  it('npm test without Chromium stops at once with one line saying how to install it', () => {
    const run = spawnSync(process.execPath, ['scripts/dist/test.js'], {
      cwd: repositoryRoot,
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining('apt-get install -y chromium')]);
  });

  it('a process of the system that exits during start-up fails startSystem at once, naming it and what it waited for', async () => {
    const failure = await startSystem({ env: { UPSTREAM_TIMEOUT_MS: 'not-a-number' } }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toMatch(
      /^the system did not become ready: gateway exited \(code \d+\) during start-up; waited \d+ s for GET http:\/\/127\.0\.0\.1:\d+\/health\/ready to answer 200/,
    );
    expect(failure).toContain('UPSTREAM_TIMEOUT_MS');
  });

  it('starts only the services a suite names, behind the gateway, and counts the others as stopped', async () => {
    const system = await startSystem({ label: 'some-services', services: ['identity'] });
    try {
      expect(Object.keys(system.pids()).sort()).toEqual(['gateway', 'identity']);
      expect(system.stopped().sort()).toEqual(['feedback', 'media', 'notifier', 'reference-data']);
      const login = await fetch(`${system.gatewayUrl}/api/auth/login/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com', password: 'Admin123!' }),
      });
      expect(login.status).toBe(200);
      const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
      const lookup = await fetch(`${system.gatewayUrl}/api/lookups/provinces`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect({ status: lookup.status, errorCode: ((await lookup.json()) as { errorCode: string }).errorCode }).toEqual({ status: 503, errorCode: 'SERVICE_UNAVAILABLE' });
    } finally {
      await system.shutdown();
    }
  });
});
