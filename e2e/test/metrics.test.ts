import { randomBytes } from 'node:crypto';
import { SERVICE_NAMES } from '@school/config';
import { JOB_QUEUES } from '../../services/notifier/src/jobs/job-queues.js';
import { type MetricsScrape, scrapeMetrics } from '@school/testing';
import type { SystemView } from '@school/system-harness';
import { clientAddress } from './support/people.js';
import { sharedSystem } from './support/shared-system.js';

let system: SystemView;

beforeAll(async () => {
  system = await sharedSystem();
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
    const accepted = requests('/api/mobile/feedback/public', 'POST', 200);
    const rejections = 'gateway_throttle_rejections_total{policy="guestFeedback"}';
    const scrape = async () => ({ gateway: await scrapeMetrics(system.gatewayMetricsUrl), feedback: await scrapeMetrics(`${system.serviceUrl('feedback')}/metrics`) });
    const change = (before: MetricsScrape, after: MetricsScrape, series: string) => (after(series) ?? 0) - (before(series) ?? 0);
    // Other suites on the shared system send guest feedback too: one submission counts once in a
    // window where no other arrived, which a quiet moment gives within a few tries.
    let changes: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const before = await scrape();
      const guest = { name: 'Asha Guest', email: `asha.${randomBytes(4).toString('hex')}@example.org`, category: 'bug_report', subject: 'metrics', message: 'Counted.' };
      const response = await fetch(`${system.gatewayUrl}/api/mobile/feedback/public`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-id': randomBytes(4).toString('hex'), 'x-forwarded-for': clientAddress() },
        body: JSON.stringify(guest),
      });
      expect(response.status).toBe(200);
      const after = await scrape();
      expectValue(rejections, after.gateway(rejections));
      changes = [change(before.gateway, after.gateway, accepted), change(before.feedback, after.feedback, accepted), change(before.gateway, after.gateway, rejections)];
      if (changes.every((value, index) => value === [1, 1, 0][index])) break;
    }
    expect(changes).toEqual([1, 1, 0]);
    const gateway = await scrapeMetrics(system.gatewayMetricsUrl);
    expect(gateway(requests('/health/ready', 'GET', 200))).toBeGreaterThanOrEqual(1);
    expect(gateway(requests('unmatched', 'GET', 404))).toBeGreaterThanOrEqual(1);
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
