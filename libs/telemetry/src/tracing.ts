import { createRequire } from 'node:module';
import { operatorEnvironment } from '@school/config';
import { getNodeAutoInstrumentations } from './instrumentations.js';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { detectResources, envDetector, hostDetector, processDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BatchSpanProcessor, NodeTracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

let running: { provider: NodeTracerProvider; unregister: () => void } | undefined;

export interface TelemetryOptions {
  /**
   * false: no automatic instrumentation of node:http and undici; the process makes its spans itself
   * and writes `traceparent` on its outgoing requests (the gateway: services/gateway/src/tracing).
   */
  autoInstrument?: boolean;
}

/**
 * Starts OpenTelemetry tracing for this process. Spans are always created, so trace ids reach the
 * logs and W3C `traceparent` flows gateway -> service -> broker; they are exported only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (environment or `.env`). Call it before the HTTP server modules are loaded.
 *
 * Only the tracer provider, the W3C propagator, the async-context manager and the two HTTP
 * instrumentations are loaded: `@opentelemetry/sdk-node` would also load every metrics and logs
 * exporter and gRPC (about 1,800 more modules and 40 MB per process). The OTLP exporter itself
 * (some 130 modules: its transformer loads the metrics and logs SDKs) only with an endpoint.
 */
export function startTelemetry(service: string, { autoInstrument = true }: TelemetryOptions = {}): void {
  if (running || process.env.OTEL_SDK_DISABLED === 'true') return;
  const endpoint = operatorEnvironment()['OTEL_EXPORTER_OTLP_ENDPOINT'];
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME ?? service }).merge(
    detectResources({ detectors: [envDetector, processDetector, hostDetector] }),
  );
  const provider = new NodeTracerProvider({
    resource,
    // Without an endpoint nothing is recorded: spans are sampled out (cheap, non-recording) but keep
    // their trace ids, so logs carry them and `traceparent` still flows to the next hop. With one,
    // the sampler is OTEL_TRACES_SAMPLER's (parent-based always-on by default).
    ...(endpoint ? { spanProcessors: [new BatchSpanProcessor(otlpExporter(endpoint))] } : { sampler: new AlwaysOffSampler() }),
  });
  provider.register();
  const unregister = registerInstrumentations({ tracerProvider: provider, instrumentations: autoInstrument ? getNodeAutoInstrumentations() : [] });
  running = { provider, unregister };
}

/** Loaded synchronously (the package's CommonJS build, the one `import` loads too): the provider must be registered before the HTTP modules load. */
function otlpExporter(endpoint: string): SpanExporter {
  const load = createRequire(import.meta.url);
  const { OTLPTraceExporter } = load('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  return new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` });
}

export async function stopTelemetry(): Promise<void> {
  const stopping = running;
  running = undefined;
  if (!stopping) return;
  stopping.unregister();
  await stopping.provider.shutdown();
}
