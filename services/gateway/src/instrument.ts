import { startTelemetry } from '@school/telemetry';

// Imported first by main.ts, so the tracer and the W3C propagator exist before any request. No
// automatic instrumentation: the gateway makes its own request spans (tracing/request-span.ts).
startTelemetry('gateway', { autoInstrument: false });
