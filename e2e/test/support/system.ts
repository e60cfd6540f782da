import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestBroker } from '@school/messaging/testing';
import pg from 'pg';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export const PROCESS_NAMES = ['identity', 'reference-data', 'feedback', 'media', 'notifier', 'gateway'] as const;
export type ProcessName = (typeof PROCESS_NAMES)[number];

export interface RunningSystem {
  gatewayUrl: string;
  mailDir: string;
  stop(name: ProcessName): Promise<void>;
  logs(name: ProcessName): string;
  shutdown(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const baseDatabaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseDatabaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts the built gateway and services as separate processes, exactly as `npm start` does, on free
 * ports, with their own database, Redis database, broker names and mail folder.
 */
export interface SystemOptions {
  /** Extra variables for every process (e.g. TRUST_PROXY), applied over the harness defaults. */
  env?: Record<string, string>;
}

export async function startSystem(options: SystemOptions = {}): Promise<RunningSystem> {
  const suffix = randomBytes(4).toString('hex');
  const database = `e2e_${suffix}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${database}`));
  const databaseUrl = new URL(baseDatabaseUrl);
  databaseUrl.pathname = `/${database}`;
  const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  redisUrl.pathname = `/${1 + (parseInt(suffix.slice(0, 4), 16) % 15)}`;
  const mailDir = await mkdtemp(join(tmpdir(), 'e2e-mail-'));

  const ports = Object.fromEntries(await Promise.all(PROCESS_NAMES.map(async (name) => [name, await freePort()] as const))) as Record<ProcessName, number>;
  const url = (name: ProcessName) => `http://127.0.0.1:${ports[name]}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redisUrl.toString(),
    AMQP_NAME_PREFIX: `e2e-${suffix}.`,
    MAIL_OUTBOX_DIR: mailDir,
    JWKS_URL: `${url('identity')}/.well-known/jwks.json`,
    IDENTITY_URL: url('identity'),
    REFERENCE_DATA_URL: url('reference-data'),
    FEEDBACK_URL: url('feedback'),
    MEDIA_URL: url('media'),
    NOTIFIER_URL: url('notifier'),
    PUBLIC_BASE_URL: url('gateway'),
    UPSTREAM_TIMEOUT_MS: '5000',
    ...options.env,
  };

  const children = new Map<ProcessName, ChildProcess>();
  const output = new Map<ProcessName, string[]>();
  for (const name of PROCESS_NAMES) {
    const child = spawn(process.execPath, [join(root, `services/${name}/dist/main.js`)], {
      cwd: root,
      env: { ...env, PORT: String(ports[name]), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    output.set(name, lines);
    child.stdout?.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    children.set(name, child);
  }

  const gatewayUrl = url('gateway');
  const system: RunningSystem = {
    gatewayUrl,
    mailDir,
    logs: (name) => (output.get(name) ?? []).join(''),
    async stop(name) {
      const child = children.get(name);
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      children.delete(name);
    },
    async shutdown() {
      await Promise.all(PROCESS_NAMES.map((name) => system.stop(name)));
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
      const broker = await TestBroker.connect(env.AMQP_NAME_PREFIX as string);
      await broker.destroy();
      await rm(mailDir, { recursive: true, force: true });
    },
  };

  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    const ready = await fetch(`${gatewayUrl}/health/ready`).catch(() => undefined);
    if (ready?.ok) return system;
    const dead = [...children].find(([, child]) => child.exitCode !== null);
    if (dead) break;
    await sleep(300);
  }
  const report = PROCESS_NAMES.map((name) => `--- ${name}\n${system.logs(name).slice(-2000)}`).join('\n');
  await system.shutdown();
  throw new Error(`the system did not become ready:\n${report}`);
}
