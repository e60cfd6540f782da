// Latency at a fixed rate (issue 24 item 3; lessons 10): a route and its ceiling each driven at the
// same arrival rate, half of what the ceiling sustains, so neither runs saturated and the p99 says
// what a request waits at a load the ceiling carries easily. autocannon's `overallRate` spreads that
// rate over the connections and corrects for coordinated omission (a late request counts as late).
import autocannon, { type AutocannonOptions, type AutocannonResult } from 'autocannon';
import { reportResult } from '../support.js';

/** autocannon `options` at `rate` requests/s overall: its latency (ms), the rate it achieved and its whole result. */
export interface RateRun {
  p50: number;
  p99: number;
  achieved: number;
  failed: number;
  result: AutocannonResult;
}

export async function atFixedRate(options: AutocannonOptions, rate: number): Promise<RateRun> {
  const result = await autocannon({ ...options, overallRate: Math.max(1, Math.round(rate)) });
  const failed = result.non2xx + result.errors + result.timeouts;
  return { p50: result.latency.p50, p99: result.latency.p99, achieved: result.requests.average, failed, result };
}

/**
 * Reports `p99 at half the ceiling's rate: <route>`: the product's p99 against the ceiling's at
 * `rate`. autocannon measures whole milliseconds: a ceiling p99 below 1 ms counts as 1.
 */
export interface LatencyComparison {
  route: string;
  rate: number;
  product: RateRun;
  ceiling: RateRun;
  ceilingName: string;
  note?: string;
}

export function reportLatency({ route, rate, product, ceiling, ceilingName, note }: LatencyComparison): ReturnType<typeof reportResult> {
  const failures = product.failed || ceiling.failed ? `; failed requests: product ${product.failed}, ceiling ${ceiling.failed}` : '';
  return reportResult({
    figure: `p99 at half the ceiling's rate: ${route}`,
    product: product.p99,
    ceiling: Math.max(1, ceiling.p99),
    unit: 'ms',
    note:
      `${Math.round(rate)} req/s against ${ceilingName}; p50 ${product.p50} / ${ceiling.p50} ms; achieved ${product.achieved.toFixed(0)} / ${ceiling.achieved.toFixed(0)} req/s${failures}` +
      (note ? `; ${note}` : ''),
  });
}
