// Checks made before any child starts: every port the system will bind is free, and PostgreSQL,
// Redis and RabbitMQ answer at their URLs. Each problem is one line: the thing, the address, what to do.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer } from 'node:net';
import { ConfigError, parseConfig, type ConfigRule, type Topology } from '@school/config';
import amqplib from 'amqplib';
import { Redis } from 'ioredis';
import pg from 'pg';

const ANSWER_TIMEOUT_MS = 3_000;

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Undefined when `port` can be bound on `host`, otherwise why not (EADDRINUSE...). */
function portFree(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

async function checkPorts(topology: Topology): Promise<string[]> {
  const problems: string[] = [];
  const owners = new Map<number, string>();
  const listeners = [...Object.entries(topology.processes), ['gateway metrics', topology.gatewayMetrics] as const];
  for (const [name, { host, port, portVariable }] of listeners) {
    const other = owners.get(port);
    if (other) {
      problems.push(`port ${port} is given to both ${other} and ${name}: set ${portVariable} to another port`);
      continue;
    }
    owners.set(port, name);
    const error = await portFree(host, port);
    if (error === 'EADDRINUSE') {
      problems.push(`port ${port} (${name}, ${portVariable}) is already in use on ${host}: stop what holds it (lsof -i :${port}) or set ${portVariable} to a free port`);
    } else if (error) {
      problems.push(`port ${port} (${name}, ${portVariable}) cannot be bound on ${host} (${error}): set ${portVariable} or HOST`);
    }
  }
  return problems;
}

const withDeadline = (promise: Promise<void>, what: string): Promise<void> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)), ANSWER_TIMEOUT_MS).unref()),
  ]).catch((error: Error) => Promise.reject(new Error(`${what}: ${error.message}`)));

async function postgresAnswers(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: ANSWER_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => {});
  }
}

async function redisAnswers(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: ANSWER_TIMEOUT_MS, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}

async function rabbitAnswers(url: string): Promise<void> {
  const connection = await amqplib.connect(url, { timeout: ANSWER_TIMEOUT_MS });
  connection.on('error', () => {});
  await connection.close();
}

/** Docker's engine answers here: `npm run infra` can start the three dependencies. */
function dockerEngineAnswers(): boolean {
  return spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'ignore', timeout: 3_000 }).status === 0;
}

/** The operator-facing URLs preflight checks (parsed by @school/config). */
export interface DependencyUrls {
  DATABASE_URL: string;
  REDIS_URL: string;
  AMQP_URL: string;
}

interface Dependency {
  name: string;
  variable: keyof DependencyUrls;
  check: (url: string) => Promise<void>;
  /** How to start it on this machine. */
  local: string;
}

const DEPENDENCIES: Dependency[] = [
  { name: 'PostgreSQL', variable: 'DATABASE_URL', check: postgresAnswers, local: 'PostgreSQL (pg_ctlcluster <version> main start, or your service manager)' },
  { name: 'Redis', variable: 'REDIS_URL', check: redisAnswers, local: 'Redis (redis-server --daemonize yes)' },
  { name: 'RabbitMQ', variable: 'AMQP_URL', check: rabbitAnswers, local: 'RabbitMQ (rabbitmq-server -detached)' },
];

async function checkDependencies(urls: DependencyUrls): Promise<string[]> {
  const failures = (
    await Promise.all(
      DEPENDENCIES.map(async (dependency) => {
        const url = urls[dependency.variable];
        try {
          await withDeadline(dependency.check(url), 'check');
          return undefined;
        } catch (error) {
          return { dependency, url, reason: (error as Error).message.replace(/^check: /, '') };
        }
      }),
    )
  ).filter((failure) => failure !== undefined);
  if (failures.length === 0) return [];
  const docker = dockerEngineAnswers();
  return failures.map(({ dependency, url, reason }) => {
    const start = docker ? '`npm run infra` (Docker) starts it' : `start a local ${dependency.local}, or run \`npm run infra\` where Docker is installed`;
    return `${dependency.name} does not answer at ${redact(url)} (${reason}): ${start}, or point ${dependency.variable} at yours`;
  });
}

/** Every problem found, one line each; empty when the system can start. `urls`: DATABASE_URL, REDIS_URL, AMQP_URL. */
export async function preflight(topology: Topology, urls: DependencyUrls): Promise<string[]> {
  const [ports, dependencies] = await Promise.all([checkPorts(topology), checkDependencies(urls)]);
  return [...ports, ...dependencies];
}

/** `reference-data` -> `referenceData`: each `dist/config.js` exports `<camel>Env` and may export `<camel>ConfigRules`. */
const camel = (name: string): string => name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

/**
 * Each child's configuration parsed as the child will parse it, before any child starts: a bad
 * value is one line naming the process and the variable, not a crash after seconds of loading.
 */
export async function invalidConfigurations(root: string, environments: Record<string, NodeJS.ProcessEnv>): Promise<string[]> {
  const problems: string[] = [];
  for (const [name, env] of Object.entries(environments)) {
    const module = (await import(pathToFileURL(join(root, `services/${name}/dist/config.js`)).href)) as Record<string, unknown>;
    const shape = module[`${camel(name)}Env`] as Parameters<typeof parseConfig>[0];
    const rules = (module[`${camel(name)}ConfigRules`] ?? []) as ConfigRule<unknown>[];
    try {
      parseConfig(shape, env, rules);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(`${name}: ${error.message}`);
    }
  }
  return problems;
}
