import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { processEnvironment } from './environment.js';
import type { ProcessName } from './topology.js';

/**
 * Parses the environment once at start-up. A bad value throws a ConfigError whose message is
 * one line naming the variable, e.g. `Invalid configuration: PORT: Too big: expected number to be <=65535`.
 */
export function parseConfig<Shape extends z.ZodRawShape>(
  shape: Shape,
  source: Record<string, string | undefined> = process.env,
): z.infer<z.ZodObject<Shape>> {
  // Empty strings mean "unset", as they do in most .env files and compose files.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const result = z.object(shape).safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

/**
 * parseConfig for a process entry point, over the environment and `.env` (see processEnvironment;
 * `role` is the process being started, none for a command-line tool). A bad value prints one line
 * and exits with status 1.
 */
export function loadConfig<Shape extends z.ZodRawShape>(shape: Shape, role?: ProcessName): z.infer<z.ZodObject<Shape>> {
  try {
    return parseConfig(shape, processEnvironment(role));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
