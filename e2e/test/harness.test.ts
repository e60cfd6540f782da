import { spawnSync } from 'node:child_process';
import { startSystem } from './support/system.js';
import { repositoryRoot } from './support/repository-root.js';

describe('the test harness', () => {
  it('npm test without Chromium stops at once with one line saying how to install it', () => {
    const run = spawnSync(process.execPath, ['scripts/test.mjs'], {
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
    expect(failure).toMatch(/^the system did not become ready: gateway exited \(code \d+\) during start-up; waited \d+ s for GET http:\/\/127\.0\.0\.1:\d+\/health\/ready to answer 200/);
    expect(failure).toContain('UPSTREAM_TIMEOUT_MS');
  });
});
