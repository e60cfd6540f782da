import { operatorEnvironment } from '@school/config';
import { getNodeAutoInstrumentations } from './instrumentations.js';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

let sdk: NodeSDK | undefined;

export interface TelemetryOptions {
  /**
   * false: no automatic instrumentation of node:http and undici; the process makes its spans itself
   * and writes `traceparent` on its outgoing requests (the gateway: services/gateway/src/tracing).
   */
  autoInstrument?: boolean;
}

/**
 * Starts OpenTelemetry for this process. Spans are always created, so trace ids reach the logs and
 * W3C `traceparent` flows gateway -> service -> broker; they are exported only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (environment or `.env`). Call it before the HTTP server modules are loaded.
 */
export function startTelemetry(service: string, { autoInstrument = true }: TelemetryOptions = {}): void {
  if (sdk || process.env.OTEL_SDK_DISABLED === 'true') return;
  const endpoint = operatorEnvironment()['OTEL_EXPORTER_OTLP_ENDPOINT'];
  // Traces only: no metrics or logs pipeline unless asked for (their default exporters would try a
  // local collector and hold up shutdown).
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME ?? service }),
    // Without an endpoint nothing is recorded: spans are sampled out (cheap, non-recording) but keep
    // their trace ids, so logs carry them and `traceparent` still flows to the next hop.
    ...(endpoint
      ? { traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }) }
      : { spanProcessors: [new tracing.NoopSpanProcessor()], sampler: new tracing.AlwaysOffSampler() }),
    instrumentations: autoInstrument ? getNodeAutoInstrumentations() : [],
  });
  sdk.start();
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}
