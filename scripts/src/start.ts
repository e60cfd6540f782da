// `npm start`: check the ports and the dependencies, build what changed, start the gateway and the
// five services (each applies its own migrations and seeds at start-up), wait until the gateway is
// ready, print its URL. Ctrl-C / SIGTERM stops every child cleanly. `npm start -- --help` for flags.
import { type ChildProcess, spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import * as config from '@school/config';
import type { ProcessName, Topology } from '@school/config';
import { repositoryRoot as root, spawnProcess } from '@school/system-harness/processes';
import { printHelp } from './start/help.js';
import { forwardOutput, OutputTail } from './start/child-output.js';
import { type DependencyUrls, invalidConfigurations, preflight } from './start/preflight.js';

/**
 * A slow machine is no failure: start-up waits as long as some child still logs. It gives up after
 * this long without a line from any of them, or after READY_TIMEOUT_MS in all.
 */
const READY_SILENCE_MS = 120_000;
const READY_TIMEOUT_MS = 600_000;
const STOP_TIMEOUT_MS = 10_000;
/** Children still starting when another failed have served nothing: they get less time to stop. */
const STARTUP_STOP_TIMEOUT_MS = 3_000;
const LAST_LINES = 30;
const FLAGS = ['--help', '-h', '--no-build', '--source-maps'];

const args = process.argv.slice(2);
const unknown = args.filter((arg) => !FLAGS.includes(arg));
if (unknown.length > 0) {
  console.error(`[start] unknown option ${unknown[0]}; see npm start -- --help`);
  process.exit(2);
}
if (args.includes('--help') || args.includes('-h')) {
  printHelp(root);
  process.exit(0);
}
const shouldBuild = !args.includes('--no-build');
// Stack traces in TypeScript lines cost every process 10-20 MB of parsed maps (docs/decisions/0018-memory-footprint.md).
const nodeOptions = args.includes('--source-maps') ? ['--enable-source-maps'] : [];
const nxEnv = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

function run(what: string, command: string, commandArgs: string[]): void {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: nxEnv });
  if (result.status !== 0) {
    console.error(`[start] ${what} failed`);
    process.exit(result.status ?? 1);
  }
}

// scripts/start.mjs built @school/config and @school/system-harness before this ran (unless --no-build).
let env: NodeJS.ProcessEnv, topology: Topology, urls: DependencyUrls;
try {
  env = config.operatorEnvironment();
  topology = config.resolveTopology(env);
  urls = config.parseConfig({ ...config.databaseEnv, ...config.redisEnv, ...config.amqpEnv }, env);
} catch (error) {
  if (!(error instanceof config.ConfigError)) throw error;
  console.error(`[start] ${error.message}`);
  process.exit(1);
}

const problems = await preflight(topology, urls);
if (problems.length > 0) {
  for (const problem of problems) console.error(`[start] ${problem}`);
  process.exit(1);
}

if (shouldBuild) {
  console.log('[start] building (nx run-many -t build)...');
  run('build', 'npx', ['nx', 'run-many', '-t', 'build', '--parallel=2', '--outputStyle=static']);
}

const environments = config.childEnvironments(env, topology);
const invalid = await invalidConfigurations(root, environments);
if (invalid.length > 0) {
  for (const problem of invalid) console.error(`[start] ${problem}`);
  process.exit(1);
}

const gateway = topology.processes.gateway;
const gatewayUrl = gateway.url;
const probeHost = ['0.0.0.0', '::', ''].includes(gateway.host) ? '127.0.0.1' : gateway.host;
const readyUrl = `http://${probeHost.includes(':') ? `[${probeHost}]` : probeHost}:${gateway.port}/health/ready`;
// Readable lines for a person at a terminal; otherwise (or LOG_FORMAT=json) the services' JSON lines untouched.
const readableLogs = env.LOG_FORMAT === 'pretty' || (env.LOG_FORMAT !== 'json' && process.stdout.isTTY === true);

const children = new Map<ProcessName, ChildProcess>();
const tails = new Map<ProcessName, OutputTail>();
let stopping = false;
let ready = false;
let startupFailure: { name: ProcessName; how: string } | undefined;
let lastOutputAt = Date.now();
let onStartupFailure = (): void => undefined;
const startupFailed = new Promise<void>((resolve) => (onStartupFailure = resolve));

function launch(name: ProcessName): void {
  const child = spawnProcess(name, { env: environments[name], nodeOptions });
  const tail = new OutputTail();
  tails.set(name, tail);
  forwardOutput(child, { label: `[${name}]`.padEnd(17), readable: readableLogs, tail });
  const progressed = () => (lastOutputAt = Date.now());
  child.stdout?.on('data', progressed);
  child.stderr?.on('data', progressed);
  child.on('exit', (code, signal) => {
    children.delete(name);
    const how = signal ?? `code ${code}`;
    if (stopping) {
      if (children.size === 0) process.exit(process.exitCode ?? 0);
    } else if (!ready) {
      startupFailure ??= { name, how };
      onStartupFailure();
    } else {
      console.error(`[start] ${name} exited (${how}); the others keep running (see ${gatewayUrl}/health/ready)`);
    }
  });
  children.set(name, child);
}

/** True once the gateway answers ready; false when a child died first or the time is up. */
async function waitUntilReady(): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const failed = startupFailed.then(() => false);
  while (Date.now() < deadline && Date.now() - lastOutputAt < READY_SILENCE_MS && !startupFailure) {
    const probe = fetch(readyUrl, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false, // not listening yet
    );
    if (await Promise.race([probe, failed])) return true;
    await Promise.race([sleep(300), startupFailed]);
  }
  return false;
}

function stopAll(reason: string, timeoutMs = STOP_TIMEOUT_MS): void {
  if (stopping) return;
  stopping = true;
  console.log(`[start] ${reason}: stopping ${children.size} process(es)...`);
  if (children.size === 0) process.exit(process.exitCode ?? 0);
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
    process.exit(1);
  }, timeoutMs).unref();
}

process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));

for (const name of config.PROCESS_NAMES) launch(name);
ready = await waitUntilReady();
if (ready) {
  for (const tail of tails.values()) tail.recording = false;
  console.log(`\n[start] ready: ${gatewayUrl} (health: ${gatewayUrl}/health/ready, metrics: ${topology.gatewayMetrics.url}/metrics). Ctrl-C stops everything.\n`);
} else if (startupFailure) {
  // Let the last lines of the dead child's pipes arrive before quoting them.
  await sleep(50);
  const { name, how } = startupFailure;
  console.error(`[start] ${name} exited during start-up (${how}); its last lines:`);
  for (const line of tails.get(name)?.lines(LAST_LINES) ?? []) console.error(`  ${line}`);
  process.exitCode = 1;
  stopAll(`${name} failed`, STARTUP_STOP_TIMEOUT_MS);
} else if (!stopping) {
  const silent = Date.now() - lastOutputAt >= READY_SILENCE_MS;
  const why = silent ? `no process logged anything for ${READY_SILENCE_MS / 1000} s` : `not within ${READY_TIMEOUT_MS / 1000} s`;
  console.error(`[start] the gateway was not ready (${why}); see ${readyUrl}`);
  process.exitCode = 1;
  stopAll('timeout');
}
