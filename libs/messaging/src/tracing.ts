import { context, propagation, ROOT_CONTEXT, type Context } from '@opentelemetry/api';

/** The W3C `traceparent` of the active OpenTelemetry context (null outside a trace). */
export function currentTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier['traceparent'] ?? null;
}

/** The trace context a message carries in its headers, to handle it as part of that trace. */
export function contextFromHeaders(headers: Record<string, unknown> | undefined): Context {
  const carrier: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (typeof value === 'string') carrier[name] = value;
    else if (Buffer.isBuffer(value)) carrier[name] = value.toString('utf8');
  }
  return propagation.extract(ROOT_CONTEXT, carrier);
}

export function runInContext<T>(ctx: Context, fn: () => Promise<T>): Promise<T> {
  return context.with(ctx, fn);
}
