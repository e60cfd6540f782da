// The whole system for `npm run faults` and `npm run soak`: the built gateway and five services as
// separate processes (as `npm start` runs them, same topology and environments) on free ports,
// with a database, a Redis database, broker names and a mail sink of their own, every dependency
// reached through a TCP proxy this run owns, so a fault touches nothing else on the machine.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from '../../bench/support.mjs';
import { scaled } from '../jest/time-scale.js';
import { startMailSink } from './mail-sink.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
// Stretched by TEST_TIME_SCALE (or the machine's load), as every bound of ready(): a loaded machine starts slowly, not wrongly.
const READY_TIMEOUT_MS = 300_000;
const STOP_TIMEOUT_MS = 10_000;
const LAST_LINES = 40;

/** Loads the built libraries (after `npm run build`); one clear line when they are missing. */
async function builtLibraries() {
  for (const name of ['gateway', 'identity', 'reference-data', 'feedback', 'media', 'notifier']) {
    if (!existsSync(join(root, `services/${name}/dist/main.js`))) throw new Error(`services/${name}/dist is missing: run \`npm run build\` first`);
  }
  const [config, testing, messaging] = await Promise.all([import('@school/config'), import('@school/testing'), import('@school/messaging/testing')]);
  return { config, freePort: testing.freePort, claimRedisDatabase: testing.claimRedisDatabase, TcpProxy: messaging.TcpProxy, TestBroker: messaging.TestBroker };
}

/** `url` with its host and port replaced by the proxy's (when there is one) and, when given, its path. */
function through(proxy, url, pathname) {
  const result = new URL(proxy ? proxy.urlFor(url) : url);
  if (pathname !== undefined) result.pathname = pathname;
  return result.toString();
}

/**
 * Starts the system. `env` is applied over the defaults (e.g. EMAIL_BACKOFF_MS). Returns the gateway
 * URL, the direct database URL (for invariant checks), the proxies, the mail sink, and process control.
 */
export async function startProofSystem({ label, env = {}, quiet = true, proxied = true } = {}) {
  const { config, freePort, claimRedisDatabase, TcpProxy, TestBroker } = await builtLibraries();
  const run = `${label}-${randomBytes(4).toString('hex')}`;
  const cleanups = [];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await step().catch((error) => console.error(`[${label}] clean-up: ${error.message}`));
  };
  try {
    const database = await freshDatabase(run.replace(/-/g, '_'));
    cleanups.push(database.drop);
    const sink = await startMailSink();
    cleanups.push(() => sink.close());
    // A Redis database of its own, claimed so no other run uses it meanwhile (like the e2e
    // harness): the gateway's throttles and the revocation store have fixed key names.
    const redis = await claimRedisDatabase(REDIS_URL);
    cleanups.push(() => redis.release());
    const proxies = {
      postgres: await TcpProxy.start(database.url),
      redis: await TcpProxy.start(redis.url),
      rabbitmq: await TcpProxy.start(AMQP_URL),
      smtp: await TcpProxy.start(sink.url),
    };
    cleanups.push(() => Promise.all(Object.values(proxies).map((proxy) => proxy.close())));
    const amqpNamePrefix = `${run}.`;
    cleanups.push(async () => (await TestBroker.connect(amqpNamePrefix, AMQP_URL)).destroy());
    const storageDir = await mkdtemp(join(tmpdir(), `${run}-storage-`));
    cleanups.push(() => rm(storageDir, { recursive: true, force: true }));

    const ports = Object.fromEntries(await Promise.all(config.PROCESS_NAMES.map(async (name) => [name, await freePort()])));
    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    const operatorEnv = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DOTENV_PATH: '/dev/null',
      // Without `proxied` (the soak) the processes reach their dependencies directly.
      DATABASE_URL: through(proxied && proxies.postgres, database.url),
      REDIS_URL: through(proxied && proxies.redis, redis.url),
      AMQP_URL: through(proxied && proxies.rabbitmq, AMQP_URL),
      SMTP_URL: through(proxied && proxies.smtp, sink.url),
      AMQP_NAME_PREFIX: amqpNamePrefix,
      REDIS_KEY_PREFIX: `${run}:`,
      CACHE_KEY_PREFIX: `${run}:`,
      STORAGE_DIR: storageDir,
      // Guest traffic comes from many addresses through one trusted proxy (X-Forwarded-For).
      TRUST_PROXY: '1',
      UPSTREAM_TIMEOUT_MS: '5000',
      ...Object.fromEntries(config.SERVICE_NAMES.map((name) => [config.servicePortVariable(name), String(ports[name])])),
      PORT: String(ports.gateway),
      METRICS_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: gatewayUrl,
      ...env,
    };
    const environments = config.childEnvironments(operatorEnv, config.resolveTopology(operatorEnv));
    const children = new Map();
    const lastLines = new Map();

    const start = (name) => {
      const child = spawn(process.execPath, [join(root, `services/${name}/dist/main.js`)], {
        cwd: root,
        env: { ...environments[name], ...(name === 'identity' && { UV_THREADPOOL_SIZE: '3' }) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const lines = lastLines.get(name) ?? [];
      lastLines.set(name, lines);
      const keep = (chunk) => {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          lines.push(line);
          if (lines.length > LAST_LINES) lines.shift();
          if (!quiet) process.stderr.write(`[${name}] ${line}\n`);
        }
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      children.set(name, child);
      return child;
    };

    const running = (child) => child.exitCode === null && child.signalCode === null;
    const stop = async (name, signal = 'SIGTERM') => {
      const child = children.get(name);
      if (!child || !running(child)) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(killer);
    };

    /** Waits until `url` answers 200; gives up early when one of `starting` exits. */
    const ready = async (url, quietTimeoutMs = READY_TIMEOUT_MS, starting = [...children.keys()]) => {
      const timeoutMs = scaled(quietTimeoutMs);
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (await fetch(url, { signal: AbortSignal.timeout(scaled(2_000)) }).then((response) => response.ok, () => false)) return;
        const dead = starting.find((name) => !running(children.get(name)));
        if (dead) throw new Error(`${dead} exited during start-up:\n${(lastLines.get(dead) ?? []).join('\n')}`);
        await sleep(300);
      }
      throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s (TEST_TIME_SCALE stretches the bound), every process still running`);
    };

    const system = {
      run,
      gatewayUrl,
      databaseUrl: database.url,
      proxies,
      sink,
      /** The processes stopped and not started again. */
      stopped: () => [...children].filter(([, child]) => !running(child)).map(([name]) => name),
      /** The pid of each running process. */
      pids: () => Object.fromEntries([...children].filter(([, child]) => running(child)).map(([name, child]) => [name, child.pid])),
      logs: (name) => (lastLines.get(name) ?? []).join('\n'),
      stop,
      /** Starts a stopped process again and waits until it is ready. */
      async restart(name) {
        start(name);
        await ready(`http://127.0.0.1:${ports[name]}/health/ready`, READY_TIMEOUT_MS, [name]);
      },
      /** Waits until the gateway reports every service ready. */
      ready: (timeoutMs) => ready(`${gatewayUrl}/health/ready`, timeoutMs),
      shutdown: cleanup,
    };
    cleanups.push(() => Promise.all([...children.keys()].map((name) => stop(name))));
    for (const name of config.PROCESS_NAMES) start(name);
    await system.ready();
    return system;
  } catch (error) {
    await cleanup();
    throw error;
  }
}
