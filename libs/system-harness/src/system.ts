import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { childEnvironments, PROCESS_NAMES, type ProcessName, resolveTopology, servicePortVariable, SERVICE_NAMES, type ServiceName } from '@school/config';
import { TcpProxy } from '@school/messaging/testing';
import { freePort, TEST_PASSWORD_HASH_COST } from '@school/testing';
import { ProcessOutput } from './output.js';
import { repositoryRoot, spawnProcess, unbuilt } from './processes.js';
import { untilReady } from './readiness.js';
import { isolatedResources } from './resources.js';

const STOP_TIMEOUT_MS = 10_000;

/** What a caller may use of a system it shares with others: addresses and output, never its processes. */
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

/** The dependencies a proxied system reaches through a TCP proxy of its own (to cut or slow them). */
export type Dependency = 'postgres' | 'redis' | 'rabbitmq' | 'smtp';

/** A system its caller started: it may stop, restart and inspect its processes. */
export interface RunningSystem extends SystemView {
  /** `<label>-<random>`, the run's name (broker prefix, database, folders). */
  run: string;
  /** The run's own database, directly (not through a proxy). */
  databaseUrl: string;
  /** With `proxied`, the proxy in front of each dependency (smtp only when SMTP_URL is given). */
  proxies: Partial<Record<Dependency, TcpProxy>>;
  stop(name: ProcessName, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped process again with its environment and waits until it is ready. */
  restart(name: ProcessName): Promise<void>;
  /** The processes stopped (or exited) and not started again. */
  stopped(): ProcessName[];
  /** The pid of each running process. */
  pids(): Partial<Record<ProcessName, number>>;
  /** The variables the process was started with (to start another replica of it beside this run). */
  environment(name: ProcessName): NodeJS.ProcessEnv;
  /** Waits until the gateway reports every service ready, or with `services`, each started process itself (`boundMs`: the longest wait, before the time scale). */
  ready(boundMs?: number): Promise<void>;
  shutdown(): Promise<void>;
}

export interface SystemOptions {
  /** Names the run's database, broker prefix and folders (default `e2e`). */
  label?: string;
  /**
   * Extra variables for every process (e.g. TRUST_PROXY), applied over the harness defaults; a
   * function receives the run's own DATABASE_URL, REDIS_URL... (e.g. to put a proxy in front).
   */
  env?: Record<string, string> | ((isolated: Record<string, string>) => Record<string, string>);
  /** Variables of one process only, over everything else. */
  processEnv?: Partial<Record<ProcessName, Record<string, string>>>;
  /** Every dependency (Postgres, Redis, RabbitMQ, SMTP_URL when set) reached through a TCP proxy of this run. */
  proxied?: boolean;
  /** A folder to copy each process's output to, as `<name>.log` (for readers in other processes). */
  logDir?: string;
  /** Each process's output on this process's stderr, line by line with its name. */
  forwardOutput?: boolean;
  /** argon2id at identity's default (OWASP's) cost, as production hashes, rather than TEST_PASSWORD_HASH_COST. */
  owaspPasswordHashing?: boolean;
  /**
   * Only these services behind the gateway (by default all): a suite of identity's rules through the
   * gateway need not start the others, some 1.5 s of CPU each. The others count as stopped, and
   * readiness is each started process's own (the gateway reports ready only with every service).
   */
  services?: readonly ServiceName[];
}

function builtProcesses(): void {
  const missing = unbuilt(PROCESS_NAMES)[0];
  if (missing) throw new Error(`services/${missing}/dist is missing: run \`npm run build\` first`);
}

/** `url` pointing at `proxy` (when given) instead of its own host and port. */
const through = (proxy: TcpProxy | undefined, url: string): string => (proxy ? proxy.urlFor(url) : url);

async function startProxies(env: Record<string, string | undefined>): Promise<Partial<Record<Dependency, TcpProxy>>> {
  const targets: [Dependency, string | undefined][] = [
    ['postgres', env['DATABASE_URL']],
    ['redis', env['REDIS_URL']],
    ['rabbitmq', env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672'],
    ['smtp', env['SMTP_URL']],
  ];
  const proxies: Partial<Record<Dependency, TcpProxy>> = {};
  for (const [dependency, url] of targets) if (url) proxies[dependency] = await TcpProxy.start(url);
  return proxies;
}

const COMPILE_CACHE = join(repositoryRoot, 'node_modules', '.cache', 'node-compile-cache');

/**
 * Starts the built gateway and services as separate processes, exactly as `npm start` does (the
 * topology and per-process environments of @school/config), on free ports (metrics included),
 * with their own database, Redis database, broker names, mail and storage folders.
 */
export async function startSystem(options: SystemOptions = {}): Promise<RunningSystem> {
  builtProcesses();
  const resources = await isolatedResources(options.label);
  const cleanups: (() => Promise<unknown>)[] = [() => resources.release()];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await step();
  };
  const ports = await Promise.all(PROCESS_NAMES.map(() => freePort()));
  const gatewayPort = ports[PROCESS_NAMES.indexOf('gateway')];
  const metricsPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  let operatorEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    ...resources.env,
    UPSTREAM_TIMEOUT_MS: '5000',
    ...Object.fromEntries(SERVICE_NAMES.map((name) => [servicePortVariable(name), String(ports[PROCESS_NAMES.indexOf(name)])])),
    PORT: String(gatewayPort),
    METRICS_PORT: String(metricsPort),
    PUBLIC_BASE_URL: gatewayUrl,
    HOST: '127.0.0.1',
    // Only what this harness sets: never a developer's .env.
    DOTENV_PATH: '/dev/null',
    // A test run starts some thirty systems of the same build: node's on-disk code cache saves a
    // tenth of each start's CPU (measured: 9.5 -> 8.4 s per system). Not for `npm start` or the
    // chart: it costs 8-17 MB of resident memory per process (docs/decisions/0018).
    NODE_COMPILE_CACHE: COMPILE_CACHE,
    ...(!options.owaspPasswordHashing && TEST_PASSWORD_HASH_COST),
    ...(typeof options.env === 'function' ? options.env(resources.env) : options.env),
  };
  let proxies: Partial<Record<Dependency, TcpProxy>> = {};
  if (options.proxied) {
    proxies = await startProxies(operatorEnv);
    cleanups.push(() => Promise.all(Object.values(proxies).map((proxy) => proxy.close())));
    operatorEnv = {
      ...operatorEnv,
      DATABASE_URL: through(proxies.postgres, operatorEnv['DATABASE_URL'] as string),
      REDIS_URL: through(proxies.redis, operatorEnv['REDIS_URL'] as string),
      AMQP_URL: through(proxies.rabbitmq, operatorEnv['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672'),
      ...(proxies.smtp && { SMTP_URL: through(proxies.smtp, operatorEnv['SMTP_URL'] as string) }),
    };
  }
  const topology = resolveTopology(operatorEnv);
  const environments = childEnvironments(operatorEnv, topology);

  const children = new Map<ProcessName, ChildProcess>();
  const outputs = new Map<ProcessName, ProcessOutput>();
  const running = (child: ChildProcess | undefined) => child !== undefined && child.exitCode === null && child.signalCode === null;
  const exits = new Map<ProcessName, string>();

  const start = (name: ProcessName) => {
    exits.delete(name);
    const child = spawnProcess(name, { env: { ...environments[name], ...options.processEnv?.[name] } });
    outputs.get(name)?.close();
    const output = new ProcessOutput(name, options.logDir && join(options.logDir, `${name}.log`), options.forwardOutput ?? false);
    outputs.set(name, output);
    output.follow(child.stdout);
    output.follow(child.stderr);
    child.once('exit', (code, signal) => exits.set(name, `${name} exited (${signal ?? `code ${code}`})`));
    child.once('close', () => output.close());
    children.set(name, child);
  };

  const stop = async (name: ProcessName, signal: NodeJS.Signals = 'SIGTERM') => {
    const child = children.get(name);
    if (!child || !running(child)) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(killer);
  };
  cleanups.push(() => Promise.all(PROCESS_NAMES.map((name) => stop(name))));

  /** Waits until `url` is ready while `names` start; throws what it waited for, with their last output. */
  const awaitReady = async (url: string, names: readonly ProcessName[], boundMs?: number) => {
    const failure = await untilReady(
      url,
      {
        exited: () =>
          names
            .map((name) => exits.get(name))
            .find(Boolean)
            ?.concat(' during start-up'),
        lastOutputAt: () => Math.max(...names.map((name) => outputs.get(name)?.lastOutputAt ?? 0)),
      },
      boundMs,
    );
    if (failure === undefined) return;
    const report = names.map((name) => `--- ${name}\n${system.logs(name).slice(-2000)}`).join('\n');
    throw new Error(`the system did not become ready: ${failure}\n${report}`);
  };

  const launched = PROCESS_NAMES.filter((name) => name === 'gateway' || (options.services ?? SERVICE_NAMES).includes(name));
  const whole = launched.length === PROCESS_NAMES.length;
  // The gateway is ready when every service is: without some, it is up once it answers at all.
  const health = (name: ProcessName) => `${topology.processes[name].url}/health/${name === 'gateway' && !whole ? 'live' : 'ready'}`;

  const system: RunningSystem = {
    run: resources.run,
    gatewayUrl,
    gatewayMetricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    databaseUrl: resources.env['DATABASE_URL'] as string,
    proxies,
    serviceUrl: (name) => topology.processes[name].url,
    brokerPrefix: operatorEnv['AMQP_NAME_PREFIX'] ?? '',
    mailDir: resources.mailDir,
    internalHosts: SERVICE_NAMES.flatMap((name) => {
      const port = ports[PROCESS_NAMES.indexOf(name)];
      return [`127.0.0.1:${port}`, `localhost:${port}`];
    }),
    logs: (name) => outputs.get(name)?.toString() ?? '',
    environment: (name) => ({ ...environments[name], ...options.processEnv?.[name] }),
    stop,
    async restart(name) {
      start(name);
      await awaitReady(health(name), [name]);
    },
    stopped: () => PROCESS_NAMES.filter((name) => !running(children.get(name))),
    pids: () => Object.fromEntries([...children].filter(([, child]) => running(child)).map(([name, child]) => [name, child.pid])),
    ready: async (boundMs) => {
      if (whole) return awaitReady(`${gatewayUrl}/health/ready`, PROCESS_NAMES, boundMs);
      await Promise.all(launched.map((name) => awaitReady(health(name), [name], boundMs)));
    },
    shutdown: cleanup,
  };

  try {
    for (const name of launched) start(name);
    await system.ready();
    return system;
  } catch (error) {
    await cleanup();
    throw error;
  }
}
