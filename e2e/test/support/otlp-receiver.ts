import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { scaled } from '@school/testing';

/** OTLP span kinds (the numbers on the wire). */
export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

export interface ReceivedSpan {
  /** `service.name` of the process that exported it. */
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
}

interface OtlpValue {
  stringValue?: string;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}
interface OtlpRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

/**
 * An OTLP/HTTP trace receiver (JSON, what `@opentelemetry/exporter-trace-otlp-http` sends): point a
 * process's OTEL_EXPORTER_OTLP_ENDPOINT at `url` and read the spans it exported.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    let receiver!: OtlpReceiver;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        if (request.url === '/v1/traces' && request.headers['content-type']?.startsWith('application/json')) {
          receiver.collect(JSON.parse(body.toString('utf8')) as OtlpRequest);
          response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } else {
          response.writeHead(415).end();
        }
      });
    });
    receiver = new OtlpReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The spans of `traceId` once `complete` says they are all there (exports arrive in batches). */
  async trace(traceId: string, complete: (spans: ReceivedSpan[]) => boolean, timeoutMs = scaled(20_000)): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const spans = this.spans.filter((span) => span.traceId === traceId);
      if (complete(spans)) return spans;
      if (Date.now() > deadline) throw new Error(`trace ${traceId} incomplete after ${timeoutMs / 1000} s: ${describeSpans(spans)}`);
      await sleep(200);
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private collect(request: OtlpRequest): void {
    for (const resourceSpans of request.resourceSpans ?? []) {
      const service = resourceSpans.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value.stringValue ?? '';
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({ service, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? '', name: span.name, kind: span.kind });
        }
      }
    }
  }
}

/** `service: name (kind)` per span, for failure messages. */
export function describeSpans(spans: readonly ReceivedSpan[]): string {
  return spans.map((span) => `${span.service}: ${span.name} (${span.kind})`).join('; ') || 'no spans';
}

/** The span and its ancestors, nearest first, as far as the trace holds them. */
export function ancestry(spans: readonly ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const byId = new Map(spans.map((candidate) => [candidate.spanId, candidate]));
  const chain: ReceivedSpan[] = [];
  for (let current: ReceivedSpan | undefined = span; current; current = byId.get(current.parentSpanId)) chain.push(current);
  return chain;
}
