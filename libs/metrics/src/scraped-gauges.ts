import { withDeadline } from '@school/async';
import { Gauge, type Registry } from 'prom-client';

export interface LabelledValue {
  labels: Record<string, string>;
  value: number;
}

/** One gauge's value, or one value per label set. */
export type GaugeReading = number | readonly LabelledValue[];

export interface ScrapedGaugesOptions<Name extends string> {
  registry: Registry;
  gauges: Record<Name, { help: string; labelNames?: readonly string[] }>;
  /** Reads every gauge of the group in one go (one query), when Prometheus scrapes. */
  read: () => Promise<Record<Name, GaugeReading>>;
  /** Names the source in errors (e.g. `outbox of feedback`). */
  source: string;
  timeoutMs?: number;
}

/** A slow database or broker must not hang the scrape: past this, the gauges read NaN (unknown). */
export const SCRAPE_TIMEOUT_MS = 1_000;

/**
 * Gauges whose values are read from their source at scrape time (prom-client `collect`), one
 * read per scrape for the whole group. A read that fails or is late sets them to NaN, so a
 * dashboard shows "unknown" rather than a stale number.
 */
export function registerScrapedGauges<Name extends string>(options: ScrapedGaugesOptions<Name>): void {
  const timeoutMs = options.timeoutMs ?? SCRAPE_TIMEOUT_MS;
  let reading: Promise<Record<Name, GaugeReading> | null> | undefined;
  // Every gauge's collect starts in the same scrape, before the first read settles: they share it.
  const readOnce = () =>
    (reading ??= withDeadline(options.read, timeoutMs, options.source)
      .catch(() => null)
      .finally(() => {
        reading = undefined;
      }));

  for (const [name, { help, labelNames = [] }] of Object.entries(options.gauges) as [Name, { help: string; labelNames?: readonly string[] }][]) {
    const known: Record<string, string>[] = [];
    new Gauge({
      name,
      help,
      labelNames,
      registers: [options.registry],
      async collect() {
        const values = await readOnce();
        apply(this, labelNames.length > 0, values ? values[name] : null, known);
      },
    });
  }
}

function apply(gauge: Gauge, labelled: boolean, reading: GaugeReading | null, known: Record<string, string>[]): void {
  if (typeof reading === 'number') {
    gauge.set(reading);
    return;
  }
  if (reading === null) {
    // Label sets never read stay absent: there is nothing to say about them.
    if (!labelled) gauge.set(Number.NaN);
    for (const labels of known) gauge.set(labels, Number.NaN);
    return;
  }
  gauge.reset();
  known.length = 0;
  for (const { labels, value } of reading) {
    gauge.set(labels, value);
    known.push(labels);
  }
}
