import type { LoggerService } from '@nestjs/common';
import type { Logger } from '@school/telemetry';

/** Nest's own log lines (module wiring, lifecycle, filters) written through the service's pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log = (message: unknown, ...rest: unknown[]) => this.write('info', message, rest);
  error = (message: unknown, ...rest: unknown[]) => this.write('error', message, rest);
  warn = (message: unknown, ...rest: unknown[]) => this.write('warn', message, rest);
  debug = (message: unknown, ...rest: unknown[]) => this.write('debug', message, rest);
  verbose = (message: unknown, ...rest: unknown[]) => this.write('trace', message, rest);
  fatal = (message: unknown, ...rest: unknown[]) => this.write('fatal', message, rest);

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, rest: unknown[]) {
    const context = typeof rest.at(-1) === 'string' ? (rest.at(-1) as string) : undefined;
    if (typeof message === 'object' && message !== null) {
      const { msg, ...fields } = message as Record<string, unknown> & { msg?: unknown };
      const text = typeof rest[0] === 'string' && rest.length > 1 ? rest[0] : typeof msg === 'string' ? msg : undefined;
      this.logger[level]({ context, ...fields }, text);
      return;
    }
    this.logger[level]({ context }, String(message));
  }
}
