import { Counter, createMetricsRegistry, startMetricsServer, type MetricsServer } from '../src/index.js';

describe('startMetricsServer', () => {
  let server: MetricsServer;

  beforeAll(async () => {
    const registry = createMetricsRegistry();
    new Counter({ name: 'test_events_total', help: 'events', registers: [registry] }).inc(3);
    server = await startMetricsServer(registry, { host: '127.0.0.1', port: 0 });
  });

  afterAll(() => server.close());

  it('serves GET /metrics on its own port and nothing else', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('test_events_total 3');
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
