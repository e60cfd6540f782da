import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ConfigRule, parseConfig, processEnvironment, type ProcessName, SERVICE_NAMES, servicePortVariable } from '@school/config';
import type { z } from 'zod';
import { feedbackEnv } from '../../../services/feedback/src/config.js';
import { gatewayEnv } from '../../../services/gateway/src/config.js';
import { identityConfigRules, identityEnv } from '../../../services/identity/src/config.js';
import { mediaConfigRules, mediaEnv } from '../../../services/media/src/config.js';
import { notifierEnv } from '../../../services/notifier/src/config.js';
import { referenceDataEnv } from '../../../services/reference-data/src/config.js';

/** What deployment artefacts (.env.example, compose, Kubernetes) are checked against: each process's own config shape. */
export const root = fileURLToPath(new URL('../../..', import.meta.url));
export const readRepoFile = (path: string) => readFileSync(`${root}/${path}`, 'utf8');

interface ProcessConfig {
  shape: z.ZodRawShape;
  rules?: readonly ConfigRule<never>[];
}

export const PROCESS_CONFIG: Record<ProcessName, ProcessConfig> = {
  gateway: { shape: gatewayEnv },
  identity: { shape: identityEnv, rules: identityConfigRules as readonly ConfigRule<never>[] },
  'reference-data': { shape: referenceDataEnv },
  feedback: { shape: feedbackEnv },
  media: { shape: mediaEnv, rules: mediaConfigRules as readonly ConfigRule<never>[] },
  notifier: { shape: notifierEnv },
};

/** Read by npm start or by the runtime itself rather than by a process's config shape. */
export const OUTSIDE_SHAPES = ['LOG_FORMAT', 'DOTENV_PATH', 'UV_THREADPOOL_SIZE', ...SERVICE_NAMES.map(servicePortVariable)];

/** Variables the runtime reads besides the shape: libuv's pool size (identity sizes it for argon2id). */
const RUNTIME_VARIABLES = ['UV_THREADPOOL_SIZE'];

/** Every variable one process reads from its environment. */
export function variablesRead(name: ProcessName): string[] {
  return [...Object.keys(PROCESS_CONFIG[name].shape), ...RUNTIME_VARIABLES];
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
  return Object.fromEntries(line.split(/\s+/).map((pair) => pair.split('=') as [string, string]).map(([key, value]) => [key, value.replace('${SERVICE}', service)]));
}
