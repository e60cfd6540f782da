import { isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

export interface LoggerSettings {
  service: string;
  level?: string;
}

/**
 * JSON logs on stdout; every line carries the service name and, inside a span, its trace and span ids.
 * stdout is written asynchronously: lines logged while a write is in flight go out together in the
 * next one (one system call for many lines under load, at once when idle); pino flushes what is left on exit.
 */
export function createLogger({ service, level = process.env.LOG_LEVEL ?? 'info' }: LoggerSettings, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const span = trace.getActiveSpan();
      const context = span?.spanContext();
      if (!context || !isSpanContextValid(context)) return {};
      return { traceId: context.traceId, spanId: context.spanId };
    },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.newPassword', '*.currentPassword', '*.refreshToken', '*.otp', '*.token'],
      censor: '[redacted]',
    },
  };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
