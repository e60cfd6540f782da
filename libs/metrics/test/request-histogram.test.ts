import { Histogram, Registry } from 'prom-client';
import { REQUEST_BUCKETS_SECONDS, RequestHistogram } from '../src/index.js';

describe('RequestHistogram', () => {
  it("exposes exactly what prom-client's Histogram exposes for the same observations", async () => {
    const ours = new Registry();
    const reference = new Registry();
    const histogram = new RequestHistogram(ours);
    const expected = new Histogram({
      name: histogram.name,
      help: histogram.help,
      labelNames: ['route', 'method', 'status_code'],
      buckets: [...REQUEST_BUCKETS_SECONDS],
      registers: [reference],
    });
    const observations: Array<[string, string, string, number]> = [
      ['/api/users/:publicId', 'GET', '200', 0.003],
      ['/api/users/:publicId', 'GET', '200', 0.005],
      ['/api/users/:publicId', 'GET', '200', 0.3],
      ['/api/users/:publicId', 'GET', '404', 12],
      ['unmatched', 'POST', '404', 0.0001],
    ];
    const series = new Map<string, ReturnType<RequestHistogram['series']>>();
    for (const [route, method, status, seconds] of observations) {
      const key = `${route} ${method} ${status}`;
      if (!series.has(key)) series.set(key, histogram.series({ route, method, status_code: status }));
      series.get(key)!.observe(seconds);
      expected.observe({ route, method, status_code: status }, seconds);
    }
    expect(await ours.metrics()).toBe(await reference.metrics());

    ours.resetMetrics();
    expect(await ours.metrics()).toContain('http_request_duration_seconds_count{route="unmatched",method="POST",status_code="404"} 0');
  });
});
