import { registerScrapedGauges, type Registry } from '@school/metrics';
import type { OutboxRelay } from './outbox-relay.js';

/** The producing service's outbox as gauges, read from its table when Prometheus scrapes. */
export function registerOutboxMetrics(registry: Registry, relay: OutboxRelay, schema: string): void {
  registerScrapedGauges({
    registry,
    source: `outbox of ${schema}`,
    gauges: {
      outbox_pending_events: { help: 'Outbox rows recorded and not yet confirmed by the broker (parked rows excluded).' },
      outbox_oldest_pending_age_seconds: { help: 'Age of the oldest outbox row not yet confirmed by the broker, in seconds (0 when none).' },
      outbox_parked_events: { help: 'Outbox rows parked after their last failed publish, waiting for an operator.' },
    },
    read: async () => {
      const backlog = await relay.backlog();
      return {
        outbox_pending_events: backlog.pending,
        outbox_oldest_pending_age_seconds: backlog.oldestPendingAgeSeconds,
        outbox_parked_events: backlog.parked,
      };
    },
  });
}
