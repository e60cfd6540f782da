import { type Attributes, context, propagation, ROOT_CONTEXT, type Context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

export { SpanKind } from '@opentelemetry/api';

const tracer = trace.getTracer('@school/telemetry');

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

/** The trace context a stored `traceparent` names (an outbox row, a job); a new trace when there is none. */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  return traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

export function runInContext<T>(ctx: Context, fn: () => Promise<T>): Promise<T> {
  return context.with(ctx, fn);
}

export interface SpanOptions {
  kind: SpanKind;
  /** The span's parent; the active context when absent. */
  parent?: Context;
  attributes?: Attributes;
}

/**
 * Runs `work` inside a new span (active for the work, so what it records or publishes carries it),
 * ends the span when the work settles and marks it failed with the error it threw.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> {
  const spanOptions = { kind: options.kind, ...(options.attributes && { attributes: options.attributes }) };
  return tracer.startActiveSpan(name, spanOptions, options.parent ?? context.active(), async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
