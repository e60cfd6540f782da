import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { processEnvironment } from './environment.js';
import type { ProcessName } from './topology.js';

/**
 * A rule over the parsed configuration that one variable's schema cannot state, such as a variable
 * required in production only: the variable at fault and what is wrong, or undefined when it holds.
 */
export type ConfigRule<Config> = (config: Config) => { variable: string; problem: string } | undefined;

/**
 * Parses the environment once at start-up. A bad value, or a broken rule, throws a ConfigError whose
 * message is one line naming the variable, e.g. `Invalid configuration: PORT: Too big: expected number to be <=65535`.
 */
export function parseConfig<Shape extends z.ZodRawShape>(
  shape: Shape,
  source: Record<string, string | undefined> = process.env,
  rules: readonly ConfigRule<z.infer<z.ZodObject<Shape>>>[] = [],
): z.infer<z.ZodObject<Shape>> {
  // Empty strings mean "unset", as they do in most .env files and compose files.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const result = z.object(shape).safeParse(cleaned);
  if (!result.success) {
    throw invalid(result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const broken = rules.flatMap((rule) => rule(result.data) ?? []);
  if (broken.length > 0) throw invalid(broken.map(({ variable, problem }) => `${variable}: ${problem}`));
  return result.data;
}

function invalid(problems: string[]): ConfigError {
  return new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

export interface LoadConfigOptions<Config> {
  /** The process being started (see processEnvironment); none for a command-line tool. */
  role?: ProcessName;
  rules?: readonly ConfigRule<Config>[];
}

/**
 * parseConfig for a process entry point, over the environment and `.env`. A bad value prints one
 * line and exits with status 1.
 */
export function loadConfig<Shape extends z.ZodRawShape>(shape: Shape, options: LoadConfigOptions<z.infer<z.ZodObject<Shape>>> = {}): z.infer<z.ZodObject<Shape>> {
  try {
    return parseConfig(shape, processEnvironment(options.role), options.rules);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
