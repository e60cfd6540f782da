import { randomBytes } from 'node:crypto';
import { createMetricsRegistry, startMetricsServer, type MetricsServer, type Registry } from '@school/metrics';
import { json, startTestGateway, type TestGateway } from './support/gateway.js';

describe('gateway metrics', () => {
  let gateway: TestGateway;
  let metrics: Registry;
  let server: MetricsServer;

  beforeAll(async () => {
    metrics = createMetricsRegistry();
    gateway = await startTestGateway({ deps: { metrics } });
    server = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await server.close();
    await gateway.close();
  });

  const scrape = async () => (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();

  it('is not reachable through the public port: GET /metrics there is 404 NOT_FOUND', async () => {
    const response = await fetch(`${gateway.url}/metrics`);
    expect(response.status).toBe(404);
    expect(await json(response)).toMatchObject({ data: null, errorCode: 'NOT_FOUND' });
  });

  it('counts requests by route pattern, method and status, unknown paths under one label', async () => {
    await fetch(`${gateway.url}/health/live`);
    await fetch(`${gateway.url}/api/upload/file/uploads/image/user-1/${randomBytes(4).toString('hex')}.png`);
    await fetch(`${gateway.url}/definitely/not/${randomBytes(4).toString('hex')}`);
    const text = await scrape();
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/health\/live",method="GET",status_code="200"\} [1-9]/);
    // A wildcard route is one series whatever the key.
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/api\/upload\/file\/\*",method="GET",status_code="\d{3}"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_count\{route="unmatched",method="GET",status_code="404"\} [1-9]/);
    expect(text).not.toContain('/definitely/not');
    expect(text).not.toContain('user-1');
  });

  it('counts throttle rejections by policy', async () => {
    const device = randomBytes(4).toString('hex');
    const body = JSON.stringify({ name: 'Guest', email: 'guest@example.com', category: 'general', message: 'hello' });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      const response = await fetch(`${gateway.url}/api/mobile/feedback/public`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-id': device },
        body,
      });
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    const text = await scrape();
    expect(text).toContain('gateway_throttle_rejections_total{policy="guestFeedback"} 2');
    expect(text).toContain('gateway_throttle_rejections_total{policy="login"} 0');
  });
});
