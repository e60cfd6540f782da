import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { peerEnvironment, resolveTopology, type ProcessName } from './topology.js';

type Environment = Record<string, string | undefined>;

/** The repository root: this file is `libs/config/{src,dist}/environment.*` in the monorepo and in its images. */
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The `.env` file a process reads, when present: `DOTENV_PATH`, else `.env` at the repository root. */
export function dotEnvPath(env: Environment = process.env): string {
  return env['DOTENV_PATH'] || join(REPO_ROOT, '.env');
}

export function readDotEnv(path: string = dotEnvPath()): Environment {
  return existsSync(path) ? parseEnv(readFileSync(path, 'utf8')) : {};
}

/** The `.env` file under the real environment: a variable set in the environment wins. */
export function operatorEnvironment(real: Environment = process.env, file: Environment = readDotEnv(dotEnvPath(real))): Environment {
  return { ...file, ...real };
}

/**
 * What one process reads: the operator's environment with the peer addresses derived from the
 * topology. A service listens on `PORT` when its real environment sets it (the supervisor and
 * containers do), else on its own `<NAME>_PORT`: a `PORT` or `HOST` in `.env` is the gateway's.
 */
export function processEnvironment(role: ProcessName | undefined, real: Environment = process.env, file: Environment = readDotEnv(dotEnvPath(real))): Environment {
  const env = operatorEnvironment(real, file);
  if (!role || role === 'gateway') return { ...env, ...peerEnvironment(resolveTopology(env)) };
  // PORT and HOST around a service are its own (or, from .env, the gateway's): not the topology's.
  const { PORT: _port, HOST: _host, ...shared } = env;
  const topology = resolveTopology(shared);
  return { ...shared, ...peerEnvironment(topology), PORT: real['PORT'] || String(topology.processes[role].port), HOST: real['HOST'] };
}
