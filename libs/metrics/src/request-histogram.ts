import type { Metric, Registry } from 'prom-client';

export type RequestLabels = { route: string; method: string; status_code: string };

/** Upper bounds in seconds, from a cached answer (5 ms) to the upstream timeout's order (10 s). */
export const REQUEST_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

interface SeriesValue {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** One label set's counts; `observe` is a bucket search and three additions. */
export class RequestSeries {
  private readonly buckets = new Float64Array(REQUEST_BUCKETS_SECONDS.length);
  sum = 0;
  count = 0;

  constructor(readonly labels: RequestLabels) {}

  observe(seconds: number): void {
    let index = 0;
    while (index < REQUEST_BUCKETS_SECONDS.length && seconds > REQUEST_BUCKETS_SECONDS[index]!) index += 1;
    if (index < this.buckets.length) this.buckets[index]! += 1;
    this.sum += seconds;
    this.count += 1;
  }

  /** Cumulative counts per upper bound, as Prometheus buckets are. */
  cumulative(): number[] {
    let total = 0;
    return Array.from(this.buckets, (count) => (total += count));
  }

  reset(): void {
    this.buckets.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

/**
 * `http_request_duration_seconds`, a Prometheus histogram exposed through prom-client's registry,
 * whose series are created once per route, method and status and then observed directly. prom-client's
 * own Histogram hashes the label values on every observation (measured: about 2 µs of the gateway's
 * CPU per request, a tenth of its cost for `/health/live`); this one does no work per request
 * beyond the arithmetic.
 */
export class RequestHistogram {
  readonly name = 'http_request_duration_seconds';
  readonly help = 'HTTP responses by route pattern, method and status code: time from the request to the response in seconds (_count is the number of requests).';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all: RequestSeries[] = [];

  constructor(registry: Registry) {
    registry.registerMetric(this as unknown as Metric);
  }

  series(labels: RequestLabels): RequestSeries {
    const series = new RequestSeries(labels);
    this.all.push(series);
    return series;
  }

  /** What prom-client's registry formats (the shape its Histogram.get() returns). */
  get() {
    const values: SeriesValue[] = [];
    for (const series of this.all) {
      series.cumulative().forEach((value, index) => values.push({ metricName: `${this.name}_bucket`, labels: { le: REQUEST_BUCKETS_SECONDS[index]!, ...series.labels }, value }));
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...series.labels }, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels: series.labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: series.labels, value: series.count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const series of this.all) series.reset();
  }
}
