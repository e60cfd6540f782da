import { collectDefaultMetrics, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The metrics of one process (or of one app, when a test runs several in a process): Node's own
 * (CPU, memory, event-loop lag, GC) plus whatever its parts register on it.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
