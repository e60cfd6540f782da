// How every tool starts a built process: node on its script from the repository's root, stdin
// closed, stderr piped. `npm start`'s supervisor, the system harness and the benchmarks all spawn here,
// so a process runs the same under each of them.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ProcessName, runtimeEnv } from '@school/config';

/** The monorepo's root, from the sources under jest or from dist. */
export const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** The built entry point of a process of the topology. */
export const mainScript = (name: ProcessName): string => join(repositoryRoot, `services/${name}/dist/main.js`);

/** The processes among `names` that have not been built (no `dist/main.js`). */
export const unbuilt = (names: readonly ProcessName[]): ProcessName[] => names.filter((name) => !existsSync(mainScript(name)));

export interface NodeProcessOptions {
  env: NodeJS.ProcessEnv;
  /** Flags for node itself (e.g. `--enable-source-maps`, `--cpu-prof`). */
  nodeOptions?: string[];
  /** Where stdout goes: piped (default), dropped, or a file descriptor. */
  stdout?: 'pipe' | 'ignore' | number;
}

/** Starts `script` with this process's node, from the repository's root. */
export function spawnNode(script: string, { env, nodeOptions = [], stdout = 'pipe' }: NodeProcessOptions): ChildProcess {
  return spawn(process.execPath, [...nodeOptions, script], { cwd: repositoryRoot, env, stdio: ['ignore', stdout, 'pipe'] });
}

/**
 * Variables a process needs besides the topology's, unless `env` sets them: its runtimeEnv, and for
 * identity a libuv pool sized to this machine. Identity verifies one argon2id password per core on
 * libuv's pool; the pool is sized at process start and needs a thread beyond those (see
 * services/identity/src/passwords/password-hasher.ts).
 */
export function processDefaults(name: ProcessName, env: NodeJS.ProcessEnv): Record<string, string> {
  const defaults: Record<string, string> = { ...runtimeEnv(name) };
  if (name === 'identity') defaults['UV_THREADPOOL_SIZE'] = String(Math.max(4, availableParallelism() + 1));
  return Object.fromEntries(Object.entries(defaults).map(([variable, value]) => [variable, env[variable] ?? value]));
}

/** Starts the built process `name` with `env` (its topology environment) and its defaults. */
export function spawnProcess(name: ProcessName, options: NodeProcessOptions): ChildProcess {
  return spawnNode(mainScript(name), { ...options, env: { ...processDefaults(name, options.env), ...options.env } });
}
