import { randomBytes } from 'node:crypto';
import { SERVICE_NAMES } from '@school/config';
import { JOB_QUEUES } from '../../services/notifier/src/jobs/job-queues.js';
import { scrapeMetrics } from '@school/testing';
import { startSystem, type RunningSystem } from '@school/system-harness';

let system: RunningSystem;

beforeAll(async () => {
  system = await startSystem();
}, 90_000);

afterAll(async () => {
  await system?.shutdown();
});

/** A number Prometheus can use: present and not NaN (a scrape-time gauge whose source failed reads NaN). */
function expectValue(label: string, value: number | undefined): void {
  if (value === undefined || !Number.isFinite(value)) throw new Error(`${label}: ${value}`);
}

const requests = (route: string, method: string, status: number) => `http_request_duration_seconds_count{route="${route}",method="${method}",status_code="${status}"}`;

describe('GET /metrics on every process', () => {
  it('is not a route of the gateway: its public port answers 404 NOT_FOUND', async () => {
    const response = await fetch(`${system.gatewayUrl}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ data: null, errorCode: 'NOT_FOUND' });
  });

  it("the gateway's metrics listener counts requests by route pattern and throttle rejections by policy", async () => {
    const guest = { name: 'Asha Guest', email: 'asha.guest@example.org', category: 'bug_report', subject: 'metrics', message: 'Counted.' };
    const response = await fetch(`${system.gatewayUrl}/api/mobile/feedback/public`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-id': randomBytes(4).toString('hex') },
      body: JSON.stringify(guest),
    });
    expect(response.status).toBe(200);
    const gateway = await scrapeMetrics(system.gatewayMetricsUrl);
    expect(gateway(requests('/api/mobile/feedback/public', 'POST', 200))).toBe(1);
    expect(gateway(requests('/health/ready', 'GET', 200))).toBeGreaterThanOrEqual(1);
    expect(gateway(requests('unmatched', 'GET', 404))).toBeGreaterThanOrEqual(1);
    expect(gateway('gateway_throttle_rejections_total{policy="guestFeedback"}')).toBe(0);

    const feedback = await scrapeMetrics(`${system.serviceUrl('feedback')}/metrics`);
    expect(feedback(requests('/api/mobile/feedback/public', 'POST', 200))).toBe(1);
  });

  it('each service serves its own on its own port: requests, its outbox or its queues, Node process metrics', async () => {
    for (const name of SERVICE_NAMES) {
      const metrics = await scrapeMetrics(`${system.serviceUrl(name)}/metrics`);
      // The gateway's readiness asks every service.
      expectValue(`${name} ready requests`, metrics(requests('/health/ready', 'GET', 200)));
      expectValue(`${name} CPU`, metrics('process_cpu_seconds_total'));
    }
    for (const producer of ['identity', 'feedback'] as const) {
      const metrics = await scrapeMetrics(`${system.serviceUrl(producer)}/metrics`);
      expectValue(`${producer} outbox backlog`, metrics('outbox_pending_events'));
      expectValue(`${producer} oldest pending age`, metrics('outbox_oldest_pending_age_seconds'));
      expect([producer, metrics('outbox_parked_events')]).toEqual([producer, 0]);
    }
    const notifier = await scrapeMetrics(`${system.serviceUrl('notifier')}/metrics`);
    expectValue('notifier queue depth', notifier(`amqp_queue_messages{queue="${system.brokerPrefix}notifier.events"}`));
    expect(notifier(`amqp_dead_letter_messages{queue="${system.brokerPrefix}notifier.events.dlq"}`)).toBe(0);
    expect(notifier(`notification_jobs{queue="${JOB_QUEUES.sendEmail}",state="failed"}`)).toBe(0);
    expect(notifier(`notification_job_failures_total{queue="${JOB_QUEUES.sendSms}",outcome="final"}`)).toBe(0);
  });
});
