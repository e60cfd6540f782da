import { startTelemetry, stopTelemetry } from '@school/telemetry';
import { startTestGateway, type TestGateway } from './support/gateway.js';

const W3C_TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/;
const INCOMING = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function traceparentsOf(rawHeaders: string[]): string[] {
  return rawHeaders.filter((_, index) => index % 2 === 1 && rawHeaders[index - 1]!.toLowerCase() === 'traceparent');
}

// One file, in this order: once started, the undici instrumentation stays subscribed for the
// whole jest worker process, so the "without OpenTelemetry" case must run first.
describe('trace context without OpenTelemetry', () => {
  it("passes the client's traceparent through unchanged", async () => {
    const gateway = await startTestGateway();
    try {
      await fetch(`${gateway.url}/api/auth/refresh`, { method: 'POST', headers: { traceparent: INCOMING } });
      expect(traceparentsOf(gateway.fakes.identity.received[0]!.rawHeaders)).toEqual([INCOMING]);
    } finally {
      await gateway.close();
    }
  });
});

describe('trace context with OpenTelemetry running', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    startTelemetry('gateway-test');
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway.close();
    await stopTelemetry();
  });

  it('sends the upstream exactly one traceparent, written by the instrumentation', async () => {
    const response = await fetch(`${gateway.url}/api/auth/refresh`, { method: 'POST', headers: { traceparent: INCOMING } });
    expect(response.status).toBe(200);
    const traceparents = traceparentsOf(gateway.fakes.identity.received[0]!.rawHeaders);
    expect(traceparents).toHaveLength(1);
    expect(traceparents[0]).toMatch(W3C_TRACEPARENT);
    expect(traceparents[0]).not.toBe(INCOMING);
  });
});
