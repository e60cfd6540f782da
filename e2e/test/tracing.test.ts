import { randomBytes } from 'node:crypto';
import { EVENT_TYPES } from '@school/contracts';
import { JOB_QUEUES } from '../../services/notifier/src/jobs/job-queues.js';
import { SmtpSink, type ReceivedMail } from '../../services/notifier/test/support/smtp-sink.js';
import { ancestry, describeSpans, OtlpReceiver, SPAN_KIND, type ReceivedSpan } from './support/otlp-receiver.js';
import { startSystem, type RunningSystem } from '@school/system-harness';
import { setTimeout as sleep } from 'node:timers/promises';
import { scaled } from '@school/testing';

/**
 * The real processes export their spans over OTLP (as in production with OTEL_EXPORTER_OTLP_ENDPOINT)
 * to a receiver in this test; each request starts its trace with a client `traceparent`.
 */
let receiver: OtlpReceiver;
let sink: SmtpSink;
let system: RunningSystem;

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
  sink = await SmtpSink.start();
  system = await startSystem({
    services: ['identity', 'feedback', 'notifier'],
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100', SMTP_URL: sink.url, MESSAGE_REQUESTS_INTERVAL_MS: '200' },
  });
}, 90_000);

afterAll(async () => {
  await system?.shutdown();
  await sink?.close();
  await receiver?.close();
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A new trace, as a client would start it: its id and the `traceparent` header to send. */
function clientTrace() {
  const traceId = hex(16);
  return { traceId, traceparent: `00-${traceId}-${hex(8)}-01` };
}

async function post(path: string, body: unknown, traceparent: string): Promise<Response> {
  return fetch(`${system.gatewayUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', traceparent, 'x-device-id': hex(4) },
    body: JSON.stringify(body),
  });
}

async function mailMatching(test: (mail: ReceivedMail) => boolean, what: string): Promise<ReceivedMail> {
  const deadline = Date.now() + scaled(20_000);
  for (;;) {
    const mail = sink.received.find(test);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail: ${what}`);
    await sleep(200);
  }
}

const smtpSend = (span: ReceivedSpan) => span.service === 'notifier' && span.name === 'smtp send' && span.kind === SPAN_KIND.client;

/** Each hop, as the span it leaves, from the SMTP send back to the gateway. */
type Hop = { service: string; kind: number; name?: string };

/**
 * The SMTP send's ancestry, nearest first, passes through every hop in this order, and the trace
 * starts at the client's traceparent: one connected trace from the gateway to the mail server.
 */
async function expectChain(traceId: string, hops: Hop[]): Promise<void> {
  const rootedAtGateway = (chain: ReceivedSpan[]) => chain.at(-1)?.service === 'gateway' && chain.at(-1)?.kind === SPAN_KIND.server;
  const smtpChain = (spans: ReceivedSpan[]) => {
    const send = spans.find(smtpSend);
    return send ? ancestry(spans, send) : [];
  };
  // Spans arrive in batches from four processes: wait until the SMTP send's ancestry is whole.
  const chain = smtpChain(await receiver.trace(traceId, (received) => rootedAtGateway(smtpChain(received))));
  const matches = (span: ReceivedSpan, hop: Hop) => span.service === hop.service && span.kind === hop.kind && (hop.name === undefined || span.name === hop.name);
  let position = 0;
  for (const hop of hops) {
    const found = chain.findIndex((span, index) => index >= position && matches(span, hop));
    if (found < 0) throw new Error(`no ${hop.service} ${hop.name ?? ''} span (kind ${hop.kind}) in order in the chain: ${describeSpans(chain)}`);
    position = found + 1;
  }
  expect(chain.at(-1)).toMatchObject({ service: 'gateway', kind: SPAN_KIND.server });
}

function notifierHops(eventType: string): Hop[] {
  return [
    { service: 'notifier', kind: SPAN_KIND.client, name: 'smtp send' },
    { service: 'notifier', kind: SPAN_KIND.consumer, name: `process ${JOB_QUEUES.sendEmail}` },
    { service: 'notifier', kind: SPAN_KIND.consumer, name: `process ${eventType}` },
  ];
}

describe('one trace from the gateway to the SMTP server', () => {
  it('covers a guest feedback: gateway, feedback, its relay publish, the notifier consume and the SMTP send', async () => {
    const { traceId, traceparent } = clientTrace();
    const subject = `trace-${hex(4)}`;
    const body = { name: 'Asha Guest', email: 'asha.guest@example.org', category: 'bug_report', subject, message: 'Traced.' };
    expect((await post('/api/mobile/feedback/public', body, traceparent)).status).toBe(200);
    await mailMatching((mail) => mail.raw.includes(subject), 'the support email');

    await expectChain(traceId, [
      ...notifierHops(EVENT_TYPES.feedbackSubmitted),
      { service: 'feedback', kind: SPAN_KIND.producer, name: `publish ${EVENT_TYPES.feedbackSubmitted}` },
      { service: 'feedback', kind: SPAN_KIND.server },
      { service: 'gateway', kind: SPAN_KIND.server },
    ]);
  });

  it('covers a password reset: the forgot request to the reset email, and the reset to the password-changed email', async () => {
    const email = 'admin@example.com';
    const forgot = clientTrace();
    expect((await post('/api/auth/password/forgot', { email }, forgot.traceparent)).status).toBe(200);
    const resetMail = await mailMatching((mail) => mail.to.includes(email) && /reset-password\?token=/.test(mail.text), 'the reset email');
    await expectChain(forgot.traceId, [
      ...notifierHops(EVENT_TYPES.passwordResetRequested),
      { service: 'identity', kind: SPAN_KIND.producer, name: `publish ${EVENT_TYPES.passwordResetRequested}` },
      { service: 'identity', kind: SPAN_KIND.internal, name: 'serve password_reset request' },
      { service: 'identity', kind: SPAN_KIND.server },
      { service: 'gateway', kind: SPAN_KIND.server },
    ]);

    const token = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(resetMail.text)![1]!);
    const reset = clientTrace();
    expect((await post('/api/auth/password/reset', { token, password: 'N3w!Brass-Kettle' }, reset.traceparent)).status).toBe(200);
    await mailMatching(
      (mail) => mail.to.includes(email) && mail !== resetMail && /password/i.test(mail.subject) && !/reset-password\?token=/.test(mail.text),
      'the password-changed email',
    );
    await expectChain(reset.traceId, [
      ...notifierHops(EVENT_TYPES.passwordChanged),
      { service: 'identity', kind: SPAN_KIND.producer, name: `publish ${EVENT_TYPES.passwordChanged}` },
      { service: 'identity', kind: SPAN_KIND.server },
      { service: 'gateway', kind: SPAN_KIND.server },
    ]);
  });
});
