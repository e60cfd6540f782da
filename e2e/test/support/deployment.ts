import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ConfigRule, parseConfig, processEnvironment, PROCESS_NAMES, type ProcessName, runtimeEnv, SERVICE_NAMES, servicePortVariable } from '@school/config';
import type { z } from 'zod';

/** What deployment artefacts (.env.example, compose, Kubernetes) are checked against: each process's own config shape. */
export const root = fileURLToPath(new URL('../../..', import.meta.url));
export const readRepoFile = (path: string) => readFileSync(`${root}/${path}`, 'utf8');

interface ProcessConfig {
  shape: z.ZodRawShape;
  rules?: readonly ConfigRule<never>[];
}

/** A process's `src/config.ts`: its shape (the exported object of variables) and its rules (`<name>ConfigRules`), if any. */
async function loadProcessConfig(name: ProcessName): Promise<ProcessConfig> {
  const module = (await import(`../../../services/${name}/src/config.js`)) as Record<string, unknown>;
  const exported = Object.entries(module);
  const shape = exported.find(([, value]) => typeof value === 'object' && value !== null && 'LOG_LEVEL' in value)?.[1] as z.ZodRawShape | undefined;
  if (!shape) throw new Error(`services/${name}/src/config.ts exports no config shape`);
  const rules = exported.find(([key]) => key.endsWith('ConfigRules'))?.[1] as readonly ConfigRule<never>[] | undefined;
  return { shape, ...(rules && { rules }) };
}

export const PROCESS_CONFIG = Object.fromEntries(await Promise.all(PROCESS_NAMES.map(async (name) => [name, await loadProcessConfig(name)]))) as Record<ProcessName, ProcessConfig>;

/** Read by npm start or by the runtime itself rather than by a process's config shape. */
/** Variables the runtime reads besides the shape: libuv's pool size (identity sizes it for argon2id), and those of runtimeEnv(). */
const runtimeVariables = (name: ProcessName) => ['UV_THREADPOOL_SIZE', ...Object.keys(runtimeEnv(name))];

export const OUTSIDE_SHAPES = [...new Set(['LOG_FORMAT', 'DOTENV_PATH', ...PROCESS_NAMES.flatMap(runtimeVariables), ...SERVICE_NAMES.map(servicePortVariable)])];

/** Every variable one process reads from its environment. */
export function variablesRead(name: ProcessName): string[] {
  return [...Object.keys(PROCESS_CONFIG[name].shape), ...runtimeVariables(name)];
}

type Environment = Record<string, string | undefined>;

/** The environment the process sees in a container (no .env file there) and the outcome of its own validation. */
export function containerConfig(name: ProcessName, env: Environment): { error?: string; config?: Record<string, unknown> } {
  const { shape, rules } = PROCESS_CONFIG[name];
  try {
    return { config: parseConfig(shape, processEnvironment(name, env, {}), rules as readonly ConfigRule<z.infer<z.ZodObject<z.ZodRawShape>>>[]) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The `ENV` of the Dockerfile's final stage, with `${SERVICE}` as the build argument gives it. */
export function imageEnvironment(service: string): Record<string, string> {
  const stages = readRepoFile('Dockerfile').split(/^FROM /m);
  const final = stages[stages.length - 1] ?? '';
  const line = /^ENV (.+)$/m.exec(final)?.[1] ?? '';
  return Object.fromEntries(
    line
      .split(/\s+/)
      .map((pair) => pair.split('=') as [string, string])
      .map(([key, value]) => [key, value.replace('${SERVICE}', service)]),
  );
}
