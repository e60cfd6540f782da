#!/usr/bin/env node
// `npm start`: build what changed, start the gateway and the five services (each applies its own
// migrations and seeds at start-up), wait until the gateway is ready, print its URL.
// Ctrl-C / SIGTERM stops every child cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { formatLogLine } from './log-format.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const PROCESSES = ['identity', 'reference-data', 'feedback', 'media', 'notifier', 'gateway'];
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const port = process.env.PORT ?? '3000';
const gatewayUrl = `http://localhost:${port}`;
const rawLogs = process.env.LOG_FORMAT === 'json';

function build() {
  console.log('[start] building (nx run-many -t build)...');
  const result = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '--parallel=2', '--outputStyle=static'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
  if (result.status !== 0) {
    console.error('[start] build failed');
    process.exit(result.status ?? 1);
  }
}

const children = new Map();
let stopping = false;

// Identity verifies one argon2id password per core on libuv's pool; the pool is sized at process
// start and needs a thread beyond those (see services/identity/src/passwords/password-hasher.ts).
const PROCESS_ENV = { identity: { UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? String(Math.max(4, availableParallelism() + 1)) } };

function launch(name) {
  const child = spawn(process.execPath, ['--enable-source-maps', `services/${name}/dist/main.js`], {
    cwd: root,
    env: { ...process.env, ...PROCESS_ENV[name] },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const label = `[${name}]`.padEnd(17);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      process.stdout.write(`${label}${rawLogs ? line : formatLogLine(line)}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) console.error(`[start] ${name} exited (${signal ?? `code ${code}`}); the others keep running`);
    if (stopping && children.size === 0) process.exit(process.exitCode ?? 0);
  });
  children.set(name, child);
}

async function waitUntilReady() {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${gatewayUrl}/health/ready`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  return false;
}

function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`[start] ${signal}: stopping ${children.size} process(es)...`);
  if (children.size === 0) process.exit(process.exitCode ?? 0);
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
    process.exit(1);
  }, STOP_TIMEOUT_MS).unref();
}

process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));

if (!process.argv.includes('--no-build')) build();
for (const name of PROCESSES) launch(name);
if (await waitUntilReady()) {
  console.log(`\n[start] ready: ${gatewayUrl} (health: ${gatewayUrl}/health/ready). Ctrl-C stops everything.\n`);
} else {
  console.error(`[start] the gateway was not ready within ${READY_TIMEOUT_MS / 1000} s; see ${gatewayUrl}/health/ready`);
  process.exitCode = 1;
  stopAll('timeout');
}
