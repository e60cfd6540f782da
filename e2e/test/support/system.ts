import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { childEnvironments, PROCESS_NAMES, type ProcessName, resolveTopology, servicePortVariable, SERVICE_NAMES, type ServiceName } from '@school/config';
import { TestBroker } from '@school/messaging/testing';
import { claimRedisDatabase, freePort, scaled } from '@school/testing';

import pg from 'pg';
import { repositoryRoot } from './repository-root.js';

const root = repositoryRoot;

export { PROCESS_NAMES, type ProcessName };

/** What a test may use of a system it shares with others: addresses and output, never its processes. */
export interface SystemView {
  gatewayUrl: string;
  /** The gateway's metrics listener (METRICS_PORT). */
  gatewayMetricsUrl: string;
  /** AMQP_NAME_PREFIX of this run: its queues are `<prefix><consumer>.events`. */
  brokerPrefix: string;
  /** Where a service listens (its own port, not reachable through the gateway's routes). */
  serviceUrl(name: ServiceName): string;
  mailDir: string;
  /** host:port of every service behind the gateway: addresses no answer may show a client. */
  internalHosts: string[];
  logs(name: ProcessName): string;
}

/** A system a suite started for itself: it may stop its processes. */
export interface RunningSystem extends SystemView {
  stop(name: ProcessName): Promise<void>;
  /** The variables the process was started with (to start another replica of it beside this run). */
  environment(name: ProcessName): NodeJS.ProcessEnv;
  shutdown(): Promise<void>;
}

const baseDatabaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  return withDatabase(baseDatabaseUrl, work);
}

export async function withDatabase<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
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
  /**
   * Extra variables for every process (e.g. TRUST_PROXY), applied over the harness defaults; a
   * function receives the run's own DATABASE_URL, REDIS_URL... (e.g. to put a proxy in front).
   */
  env?: Record<string, string> | ((isolated: Record<string, string>) => Record<string, string>);
  /** A folder to copy each process's output to, as `<name>.log` (for readers in other processes). */
  logDir?: string;
}

export interface IsolatedResources {
  /** DATABASE_URL, REDIS_URL, AMQP_NAME_PREFIX, MAIL_OUTBOX_DIR of this run only. */
  env: Record<string, string>;
  mailDir: string;
  release(): Promise<void>;
}

/** A database, a Redis database, broker names and a mail folder of its own for one system run. */
export async function isolatedResources(): Promise<IsolatedResources> {
  const suffix = randomBytes(4).toString('hex');
  const database = `e2e_${suffix}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${database}`));
  const databaseUrl = new URL(baseDatabaseUrl);
  databaseUrl.pathname = `/${database}`;
  const redis = await claimRedisDatabase(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const mailDir = await mkdtemp(join(tmpdir(), 'e2e-mail-'));
  const amqpNamePrefix = `e2e-${suffix}.`;
  return {
    env: { DATABASE_URL: databaseUrl.toString(), REDIS_URL: redis.url, AMQP_NAME_PREFIX: amqpNamePrefix, MAIL_OUTBOX_DIR: mailDir },
    mailDir,
    async release() {
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
      await redis.release();
      const broker = await TestBroker.connect(amqpNamePrefix);
      await broker.destroy();
      await rm(mailDir, { recursive: true, force: true });
    },
  };
}

export async function startSystem(options: SystemOptions = {}): Promise<RunningSystem> {
  const resources = await isolatedResources();
  const { mailDir } = resources;
  const ports = await Promise.all(PROCESS_NAMES.map(() => freePort()));
  const gatewayPort = ports[PROCESS_NAMES.indexOf('gateway')];
  const metricsPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const operatorEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    ...resources.env,
    UPSTREAM_TIMEOUT_MS: '5000',
    ...Object.fromEntries(SERVICE_NAMES.map((name, index) => [servicePortVariable(name), String(ports[index])])),
    PORT: String(gatewayPort),
    METRICS_PORT: String(metricsPort),
    PUBLIC_BASE_URL: gatewayUrl,
    HOST: '127.0.0.1',
    // Only what this harness sets: never a developer's .env.
    DOTENV_PATH: '/dev/null',
    ...(typeof options.env === 'function' ? options.env(resources.env) : options.env),
  };
  // The same topology and per-process environments as `npm start`.
  const topology = resolveTopology(operatorEnv);
  const environments = childEnvironments(operatorEnv, topology);

  const children = new Map<ProcessName, ChildProcess>();
  const output = new Map<ProcessName, string[]>();
  let lastOutputAt = Date.now();
  let exitedEarly: string | undefined;
  for (const name of PROCESS_NAMES) {
    const child = spawn(process.execPath, [join(root, `services/${name}/dist/main.js`)], {
      cwd: root,
      env: environments[name],
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    output.set(name, lines);
    const logFile = options.logDir ? createWriteStream(join(options.logDir, `${name}.log`)) : undefined;
    const keep = (chunk: Buffer) => {
      lines.push(chunk.toString());
      logFile?.write(chunk);
      lastOutputAt = Date.now();
    };
    child.once('close', () => logFile?.end());
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', (code, signal) => (exitedEarly ??= `${name} exited (${signal ?? `code ${code}`}) during start-up`));
    children.set(name, child);
  }

  const system: RunningSystem = {
    gatewayUrl,
    gatewayMetricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    serviceUrl: (name) => topology.processes[name].url,
    brokerPrefix: resources.env['AMQP_NAME_PREFIX'] ?? '',
    mailDir,
    internalHosts: SERVICE_NAMES.flatMap((_, index) => [`127.0.0.1:${ports[index]}`, `localhost:${ports[index]}`]),
    logs: (name) => (output.get(name) ?? []).join(''),
    environment: (name) => ({ ...environments[name] }),
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
      await resources.release();
    },
  };

  const failure = await untilReady(`${gatewayUrl}/health/ready`, () => exitedEarly, () => lastOutputAt);
  if (failure === undefined) return system;
  const report = PROCESS_NAMES.map((name) => `--- ${name}\n${system.logs(name).slice(-2000)}`).join('\n');
  await system.shutdown();
  throw new Error(`the system did not become ready: ${failure}\n${report}`);
}

/** Quiet for this long (no process printing, gateway not ready): start-up has stalled. */
const STALL_MS = 120_000;
/** However busy the processes are, start-up takes no longer than this. */
const READY_BOUND_MS = 600_000;

/**
 * Polls `url` until it answers 200. Fails at once when a process exits, and otherwise only when
 * nothing has been printed for STALL_MS or READY_BOUND_MS has passed, both stretched by the
 * time scale: a slow machine that is still making progress is not a failure. Returns why it failed.
 */
async function untilReady(url: string, exited: () => string | undefined, lastOutputAt: () => number): Promise<string | undefined> {
  const startedAt = Date.now();
  const stallMs = scaled(STALL_MS);
  const boundMs = scaled(READY_BOUND_MS);
  let lastAnswer = 'no answer yet';
  for (;;) {
    const answer = await fetch(url, { signal: AbortSignal.timeout(stallMs) }).catch(() => undefined);
    if (answer?.ok) return undefined;
    if (answer) lastAnswer = `${answer.status} ${(await answer.text().catch(() => '')).slice(0, 300)}`;
    const waited = `waited ${Math.round((Date.now() - startedAt) / 1000)} s for GET ${url} to answer 200 (last: ${lastAnswer})`;
    const dead = exited();
    if (dead) return `${dead}; ${waited}`;
    if (Date.now() - lastOutputAt() > stallMs) return `no process printed anything for ${stallMs / 1000} s; ${waited}`;
    if (Date.now() - startedAt > boundMs) return `the bound of ${boundMs / 1000} s (TEST_TIME_SCALE stretches it) passed; ${waited}`;
    await sleep(300);
  }
}
