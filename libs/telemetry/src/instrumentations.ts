import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

/** Inbound HTTP (node:http servers) and outbound fetch/undici (the gateway's proxy, service-to-service calls). */
export function getNodeAutoInstrumentations() {
  return [new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => (request.url ?? '').startsWith('/health/') }), new UndiciInstrumentation()];
}
