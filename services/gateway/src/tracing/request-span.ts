import type { IncomingHttpHeaders } from 'node:http';
import { isSpanContextValid, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from '@school/telemetry';

declare module 'fastify' {
  interface FastifyRequest {
    /** The gateway's span of this request: a child of the client's `traceparent`, the parent of the upstream's. */
    span: Span | undefined;
  }
}

const tracer = trace.getTracer('@school/gateway');

/**
 * One server span per request, opened and closed by two hooks. The generic node:http and undici
 * instrumentations (off in the gateway, see instrument.ts) carry the active context through every
 * callback of the proxy with AsyncLocalStorage, which the profile showed costing more than the
 * proxying; the gateway only needs the span's ids, for its log lines and the upstream's `traceparent`.
 * Without OpenTelemetry started, no span is made and the client's `traceparent` passes through.
 */
export function registerRequestSpans(app: FastifyInstance, skip: (url: string) => boolean): void {
  app.decorateRequest('span', undefined);
  app.addHook('onRequest', (request, _reply, done) => {
    if (skip(request.url)) return done();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`, { kind: SpanKind.SERVER }, parent);
    const spanContext = span.spanContext();
    if (isSpanContextValid(spanContext)) {
      request.span = span;
      // The gateway's request loggers are pino's (createLogger), which can add bindings in place.
      (request.log as Logger).setBindings({ traceId: spanContext.traceId, spanId: spanContext.spanId });
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = request.span;
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}

/** Writes the W3C trace headers naming the request's span as the upstream's parent. */
export function injectTraceContext(request: FastifyRequest, headers: IncomingHttpHeaders): void {
  if (request.span) propagation.inject(trace.setSpan(ROOT_CONTEXT, request.span), headers);
}
