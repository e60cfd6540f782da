import { createServer, type Server } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES, servicePortVariable } from '@school/config';
import { freePort, scaled } from '@school/testing';
import { runSupervisor } from './support/supervisor.js';
import { isolatedResources, type IsolatedResources, withDatabase } from '@school/system-harness';

/** Every failure of start-up must be answered within this (issue 8), on a quiet machine. */
const FAILURE_DEADLINE_MS = scaled(10_000);

let dotEnvDir: string;

beforeAll(async () => {
  dotEnvDir = await mkdtemp(join(tmpdir(), 'start-env-'));
});

afterAll(async () => {
  await rm(dotEnvDir, { recursive: true, force: true });
});

/** The operator's environment: only what they would set, no developer .env, fresh free ports. */
async function operatorEnvironment(extra: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
  const ports = await Promise.all(SERVICE_NAMES.map(() => freePort()));
  const { PORT: _port, HOST: _host, ...inherited } = process.env;
  return {
    ...inherited,
    NODE_ENV: 'test',
    DOTENV_PATH: join(dotEnvDir, 'absent.env'),
    PORT: String(await freePort()),
    METRICS_PORT: String(await freePort()),
    ...Object.fromEntries(SERVICE_NAMES.map((name, index) => [servicePortVariable(name), String(ports[index])])),
    ...extra,
  };
}

describe('npm start on non-default ports', () => {
  let resources: IsolatedResources;

  beforeAll(async () => {
    resources = await isolatedResources();
  });

  afterAll(async () => {
    await resources?.release();
  });

  it('starts all six processes, reads .env under the environment, and stops cleanly', async () => {
    const env = await operatorEnvironment({ ...resources.env, LOG_FORMAT: 'json' });
    // .env moves the notifier and sets a gateway port the real environment overrides.
    const notifierPort = await freePort();
    const dotEnv = join(dotEnvDir, 'start.env');
    await writeFile(dotEnv, `NOTIFIER_PORT=${notifierPort}\nPORT=1\n# a comment\n`);
    delete env['NOTIFIER_PORT'];
    env['DOTENV_PATH'] = dotEnv;

    const run = runSupervisor(env);
    try {
      await run.waitFor(/\[start\] ready: http:\/\/localhost:\d+/, 90_000);
      const ready = await fetch(`http://127.0.0.1:${env['PORT']}/health/ready`);
      expect(ready.status).toBe(200);
      const body = (await ready.json()) as { data: { checks: Record<string, string> } };
      expect(body.data.checks).toEqual({ redis: 'up', identity: 'up', 'reference-data': 'up', feedback: 'up', media: 'up', notifier: 'up' });
      // Each service listens on the port it was given, not on the gateway's.
      for (const name of SERVICE_NAMES) {
        const port = name === 'notifier' ? notifierPort : env[servicePortVariable(name)];
        expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
      }
    } finally {
      run.child.kill('SIGTERM');
    }
    expect((await run.exited).code).toBe(0);
  }, 120_000);
});

describe('npm start refuses to start, in one line and at once', () => {
  it('names a port that is already taken', async () => {
    const env = await operatorEnvironment();
    const holder: Server = createServer();
    const port = Number(env[servicePortVariable('identity')]);
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const run = runSupervisor(env);
      const { code, elapsedMs } = await run.exited;
      expect(code).not.toBe(0);
      expect(elapsedMs).toBeLessThan(FAILURE_DEADLINE_MS);
      expect(run.output()).toContain(`[start] port ${port} (identity, IDENTITY_PORT) is already in use on 127.0.0.1`);
      expect(run.output()).not.toContain('[identity]');
    } finally {
      holder.close();
    }
  });

  it('names the database it cannot reach and what to do', async () => {
    const closedPort = await freePort();
    const run = runSupervisor(await operatorEnvironment({ DATABASE_URL: `postgresql://postgres:secret@127.0.0.1:${closedPort}/postgres` }));
    const { code, elapsedMs } = await run.exited;
    expect(code).not.toBe(0);
    expect(elapsedMs).toBeLessThan(FAILURE_DEADLINE_MS);
    const lines = run.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^\\[start\\] PostgreSQL does not answer at postgresql://postgres:\\*\\*\\*@127\\.0\\.0\\.1:${closedPort}/postgres .*npm run infra.*DATABASE_URL`),
    );
  });

  it('names a bad value of a child before starting any', async () => {
    const run = runSupervisor(await operatorEnvironment({ OTP_TTL_MINUTES: 'never' }));
    const { code, elapsedMs } = await run.exited;
    expect(code).not.toBe(0);
    expect(elapsedMs).toBeLessThan(FAILURE_DEADLINE_MS);
    expect(run.output().trim()).toMatch(/^\[start\] identity: Invalid configuration: OTP_TTL_MINUTES: [^\n]+$/);
  });

  it('ends at once with the last lines of a child that dies during start-up', async () => {
    const resources = await isolatedResources();
    try {
      // A database identity cannot migrate: its migration history table has the wrong columns.
      await withDatabase(resources.env['DATABASE_URL'] as string, (client) => client.query('CREATE SCHEMA identity; CREATE TABLE identity._prisma_migrations (id int)'));
      const run = runSupervisor(await operatorEnvironment({ ...resources.env, LOG_FORMAT: 'json' }));
      await run.waitFor(/"service":"identity".*failed to start/, 60_000);
      const crashedAt = Date.now();
      const { code } = await run.exited;
      expect(code).not.toBe(0);
      // Measured from the crash: how long the other children took to load is the machine's business.
      expect(Date.now() - crashedAt).toBeLessThan(FAILURE_DEADLINE_MS);
      expect(run.output()).toMatch(/\[start\] identity exited during start-up \(code 1\); its last lines:\n {2}\{.*failed to start: column \\?"checksum\\?" does not exist/);
    } finally {
      await resources.release();
    }
  }, 90_000);

  it('refuses an unknown flag', async () => {
    const run = runSupervisor(await operatorEnvironment(), ['--fast']);
    expect((await run.exited).code).toBe(2);
    expect(run.output()).toContain('unknown option --fast');
  });
});

describe('npm start -- --help', () => {
  it('prints the flags and every documented variable', async () => {
    const run = runSupervisor(await operatorEnvironment(), ['--help']);
    expect((await run.exited).code).toBe(0);
    const text = run.output();
    expect(text).toContain('--no-build');
    expect(text).toContain('--source-maps');
    for (const variable of ['PORT', 'HOST', ...SERVICE_NAMES.map(servicePortVariable), 'DATABASE_URL', 'TRUST_PROXY']) {
      expect(text).toMatch(new RegExp(`^ {2}${variable}=`, 'm'));
    }
  });
});
